"""Every registered game package has the one shape of docs/DESIGN.md "A game package".

A newcomer learns one package and finds the same file for the same job in every other: the
`Game` object in ``game.py``, options in ``config.py``, types in ``model.py``, rules in
``rules.py`` (or a ``rules/`` package), the fold in ``fold.py``, hiding in ``views.py``, words in
``describe.py``, bots in ``bots.py``, declared traits in ``traits.py`` and components as data in
``data.py`` + ``data/*.json``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from core import registry
from core.game import DataError

FILES = (
    "__init__.py",
    "game.py",
    "config.py",
    "model.py",
    "fold.py",
    "views.py",
    "describe.py",
    "bots.py",
    "traits.py",
    "data.py",
)


def package_dir(game_id: str) -> Path:
    module = importlib.import_module(type(registry.get(game_id)).__module__)
    assert module.__file__ is not None
    return Path(module.__file__).parent


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_every_game_package_lists_the_same_files(game_id: str) -> None:
    folder = package_dir(game_id)
    missing = [name for name in FILES if not (folder / name).is_file()]
    assert not missing, f"{folder} lacks {missing}"
    rules = folder / "rules.py"
    assert rules.is_file() != (folder / "rules" / "__init__.py").is_file(), (
        f"{folder} needs rules.py or a rules/ package (one, not both)"
    )
    assert sorted((folder / "data").glob("*.json")), f"{folder}/data holds no JSON components"
    assert not sorted(folder.glob("*.json")), "component files live in data/, not beside code"


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_the_game_object_lives_in_game_py(game_id: str) -> None:
    game = registry.get(game_id)
    assert type(game).__module__.endswith(".game")
    package = importlib.import_module(type(game).__module__.rsplit(".", 1)[0])
    assert package.GAME is game


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_data_errors_are_the_one_core_data_error(game_id: str) -> None:
    folder = package_dir(game_id)
    data = importlib.import_module(
        f"{type(registry.get(game_id)).__module__.rsplit('.', 1)[0]}.data"
    )
    assert getattr(data, "DataError", DataError) is DataError
    assert "class DataError" not in (folder / "data.py").read_text(encoding="utf-8")
