"""pip's build of the Python package hta (PEP 517 through setuptools).

    pip install --no-build-isolation ./src/python

The extension hta._hta links hta's C library; the package carries the
command `hta` (the same binary as make's) and its manual pages, and
puts `hta` on the environment's PATH.  From the repository the
library is built in the tree first (`make BUILD=$HTA_BUILD
$HTA_BUILD/libhta.so.0`, default build/) and a copy of libhta.so.0 goes
into the package beside the extension (rpath $ORIGIN), as `make` does
for build/python; with HTA_USE_INSTALLED=1, or outside the repository,
the installed library is found by pkg-config (`make install` puts hta.pc
there).  The version is the library's (include/hta/version.h, or
pkg-config's --modversion): hta.__version__ equals `hta --version`'s.

Debian's build tools and no network: setuptools and numpy from Debian's
python3-setuptools and python3-numpy, hence --no-build-isolation (a
build in isolation would fetch them from an index).
"""
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import tempfile

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
IN_TREE = (ROOT / "Makefile").is_file() and (ROOT / "include" / "hta").is_dir()
USE_INSTALLED = os.environ.get("HTA_USE_INSTALLED") == "1" or not IN_TREE
BUILD = pathlib.Path(os.environ.get("HTA_BUILD", ROOT / "build"))
if not BUILD.is_absolute():
    BUILD = ROOT / BUILD


def pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args, "hta"], check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(
            "hta: no installed libhta found by pkg-config (make install, "
            "or PKG_CONFIG_PATH); from the repository, leave "
            f"HTA_USE_INSTALLED unset ({e})")
    return shlex.split(out)


def version():
    if USE_INSTALLED:
        return pkg_config("--modversion")[0]
    text = (ROOT / "include" / "hta" / "version.h").read_text()
    return re.search(r'#define HTA_VERSION "([^"]+)"', text).group(1)


def installed_prefix():
    """Where `make install` put hta: pkg-config's prefix, under
    PKG_CONFIG_SYSROOT_DIR when set."""
    prefix = subprocess.run(["pkg-config", "--variable=prefix", "hta"],
                            check=True, capture_output=True,
                            text=True).stdout.strip()
    root = os.environ.get("PKG_CONFIG_SYSROOT_DIR", "")
    # pkgconf puts the sysroot before the variables; pkg-config does not
    return pathlib.Path(prefix if prefix.startswith(root) else root + prefix)


def command_files():
    """The command and its manual pages: make's (in the tree) or the
    installed ones, as (source, path under the package's _prefix)."""
    if USE_INSTALLED:
        base = installed_prefix()
        exe, man = base / "bin" / "hta", base / "share" / "man"
        pages = sorted(man.glob("man[157]/hta*.[157]"))
    else:
        exe, man = BUILD / "hta", BUILD / "man"
        pages = sorted(man.glob("hta*.[157]"))
    files = [(exe, pathlib.Path("bin") / "hta")]
    for p in pages:
        files.append((p, pathlib.Path("share") / "man" /
                      f"man{p.suffix[1:]}" / p.name))
    return files


def man_data_files():
    """The manual pages into the environment's share/man as well (what
    the build makes, named before it runs), so that `man hta-solve`
    finds them from the environment's bin on PATH."""
    if USE_INSTALLED:
        pages = [src for src, rel in command_files()[1:]]
    else:
        pages = [BUILD / "man" / p.stem
                 for p in sorted((ROOT / "src" / "cli" / "doc").glob("*.scd"))]
    by = {}
    for p in pages:
        by.setdefault(f"share/man/man{p.suffix[1:]}", []).append(str(p))
    return sorted(by.items())


class BuildExt(build_ext):
    """Builds the library, the command and its manual pages in the tree
    first and puts a copy of the library beside the extension (in-tree),
    or links the installed one; the command and its pages go into the
    package's own prefix (hta/_prefix/bin/hta, hta/_prefix/share/man),
    run by the `hta` console script, so that `hta help policy` finds its
    page there as an installed hta finds PREFIX/share/man."""

    def run(self):
        if not USE_INSTALLED:
            jobs = [] if "-j" in os.environ.get("MAKEFLAGS", "") else \
                [f"-j{os.cpu_count() or 1}"]
            subprocess.run(["make", "-C", str(ROOT), "--no-print-directory",
                            *jobs, f"BUILD={BUILD}", f"{BUILD}/libhta.so.0",
                            f"{BUILD}/hta", "man"], check=True)
        super().run()
        dest = pathlib.Path(self.build_lib) / "hta"
        dest.mkdir(parents=True, exist_ok=True)
        if not USE_INSTALLED:
            shutil.copy2(BUILD / "libhta.so.0", dest / "libhta.so.0")
            if self.inplace:
                shutil.copy2(BUILD / "libhta.so.0", HERE / "hta")
        for src, rel in command_files():
            out = dest / "_prefix" / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, out)


def extension():
    sources = sorted(str(p.relative_to(HERE)) for p in HERE.glob("*.c"))
    cflags = ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wno-write-strings",
              "-fvisibility=hidden"]
    if USE_INSTALLED:
        flags = pkg_config("--cflags", "--libs")
        incs = [f[2:] for f in flags if f.startswith("-I")]
        libdirs = [f[2:] for f in flags if f.startswith("-L")]
        return Extension(
            "hta._hta", sources, include_dirs=[str(HERE), numpy.get_include(),
                                               *incs],
            library_dirs=libdirs, libraries=["hta"],
            runtime_library_dirs=libdirs, extra_compile_args=cflags)
    return Extension(
        "hta._hta", sources,
        include_dirs=[str(HERE), str(ROOT / "include"), numpy.get_include()],
        extra_compile_args=cflags,
        extra_objects=[str(BUILD / "libhta.so.0")],
        extra_link_args=["-Wl,-rpath,$ORIGIN"])


# setuptools' own files out of the source tree: beside the library built
# for it, or in a fresh directory when linking the installed one (a
# stale object of the other kind is never reused)
WORK = BUILD / "pip" if not USE_INSTALLED else \
    pathlib.Path(tempfile.mkdtemp(prefix="hta-pip-"))
WORK.mkdir(parents=True, exist_ok=True)

setup(
    name="hta",
    options={"build": {"build_base": str(WORK / "build")},
             "egg_info": {"egg_base": str(WORK)}},
    version=version(),
    description="Task assignment and scheduling with data locality in "
                "Hadoop-like clusters: the offline optimum, capacity "
                "regions, online map scheduling, flow time, ReduceTask "
                "placement",
    license="GPL-3.0-or-later",
    packages=["hta"],
    package_dir={"hta": "hta"},
    ext_modules=[extension()],
    cmdclass={"build_ext": BuildExt},
    entry_points={"console_scripts": ["hta = hta._command:main"]},
    data_files=man_data_files(),
    install_requires=["numpy"],
    python_requires=">=3.9",
)
