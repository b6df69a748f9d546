"""``torch.version``: what scripts print or test (``torch.version.cuda`` is None on a CPU
build, as here)."""
__version__ = "0.1.0"
cuda = None
hip = None
debug = False
git_version = None
