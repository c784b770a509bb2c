from clue_stats.cli import main

if __name__ == "__main__":  # not when a worker process (Dask's, multiprocessing's) imports the main module again
    main()
