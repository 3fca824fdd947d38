"""The `hta` command of a pip-installed package: the binary the package
carries (hta/_prefix/bin/hta, make's own build, with its manual pages in
hta/_prefix/share/man), run in this process's place."""
import os
import sys


def main():
    exe = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "_prefix", "bin", "hta")
    if not os.access(exe, os.X_OK):
        sys.exit("hta: this package carries no command (it was not built "
                 "by pip from ./src/python; make's is build/hta)")
    try:
        os.execv(exe, [exe, *sys.argv[1:]])
    except OSError as e:
        sys.exit(f"hta: cannot run {exe}: {e.strerror}")
