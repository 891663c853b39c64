"""The packages, with two folders of the checkout installed inside them: ``static/`` as
``companion/static`` and ``dictionaries/`` as ``companion/dictionaries``. The folders stay at the
top of the checkout, where the project's layout has them; companion/paths.py finds them in
either place. (pyproject.toml alone cannot add mapped folders to the packages it finds.)"""

from setuptools import find_namespace_packages, setup

FOLDERS = {"companion.static": "static", "companion.dictionaries": "dictionaries"}


def data_packages(package: str, folder: str) -> dict[str, str]:
    """The folder and each folder in it, as packages of data (every file in them is installed)."""
    found = find_namespace_packages(where=folder)
    return {package: folder, **{f"{package}.{p}": f"{folder}/{p.replace('.', '/')}" for p in found}}


DATA = {name: path for package, folder in FOLDERS.items()
        for name, path in data_packages(package, folder).items()}

setup(packages=[*find_namespace_packages(include=["companion", "companion.*"]), *DATA],
      package_dir=DATA, package_data={"": ["*.json"], **{name: ["*"] for name in DATA}})
