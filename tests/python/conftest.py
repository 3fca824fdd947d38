"""The package under test is the one built beside $HTA (tests/python/run.sh);
HTA is the command whose numbers it must give."""
import os
import subprocess
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    hta = os.environ.get("HTA", str(ROOT / "build" / "hta"))

    def run(*args):
        out = subprocess.run([hta, *map(str, args)], check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out)
    return run


@pytest.fixture(scope="session")
def root():
    return ROOT
