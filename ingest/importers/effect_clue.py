NAME = "effect_clue"
DESCRIPTION = ""
EXTENSIONS = ()
def detect(t, f=None): return False
def read(t, s=None): raise NotImplementedError
