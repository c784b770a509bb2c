from clue_stats.cli import main

main()
