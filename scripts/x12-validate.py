#!/usr/bin/env python3
"""Validates X12 files against their implementation guide with pyx12, an independent validator.

    x12-validate.py FILE...

Prints pyx12's findings and exits 1 when any file fails, 0 when every file passes.

pyx12's releases carry no 005010X279A1 (270/271) map. Its maps for that guide exist only in the
pyx12 repository (commit a564361, BSD-3-Clause); test/fixtures/x12/pyx12-maps holds them. This
script lays them beside the installed pyx12's own maps in a temporary directory and registers them
in its maps.xml, so the installed pyx12 code validates against them without any change to it.
"""
import logging
import os
import shutil
import sys
import tempfile

import pyx12
import pyx12.params
import pyx12.x12n_document

GUIDE_MAPS = os.path.join(os.path.dirname(__file__), "..", "test", "fixtures", "x12", "pyx12-maps")
REGISTRATIONS = (
    '<map vriic="005010X279A1" fic="HS" abbr="270">270.5010.X279.A1.xml</map>\n'
    '    <map vriic="005010X279A1" fic="HB" abbr="271">271.5010.X279.A1.xml</map>\n    '
)


def map_directory(target):
    shutil.copytree(os.path.join(os.path.dirname(pyx12.__file__), "map"), target)
    for name in os.listdir(GUIDE_MAPS):
        shutil.copy(os.path.join(GUIDE_MAPS, name), target)
    maps_xml = os.path.join(target, "maps.xml")
    with open(maps_xml, encoding="utf-8") as f:
        text = f.read()
    anchor = '<map vriic="005010X214"'
    if anchor not in text:
        raise SystemExit("pyx12's maps.xml has changed shape; update x12-validate.py")
    with open(maps_xml, "w", encoding="utf-8") as f:
        f.write(text.replace(anchor, REGISTRATIONS + anchor, 1))


def main(files):
    logger = logging.getLogger("pyx12")
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.ERROR)

    with tempfile.TemporaryDirectory() as workdir:
        maps = os.path.join(workdir, "map")
        map_directory(maps)
        param = pyx12.params.params()
        param.set("map_path", maps)
        failures = 0
        for name in files:
            with tempfile.TemporaryFile(mode="w+", encoding="ascii") as acknowledgement:
                ok = pyx12.x12n_document.x12n_document(
                    param=param,
                    src_file=name,
                    fd_997=acknowledgement,
                    fd_html=None,
                    fd_xmldoc=None,
                    map_path=maps,
                )
            print(f"{name}: {'OK' if ok else 'Failure'}")
            failures += 0 if ok else 1
        return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1:]))
