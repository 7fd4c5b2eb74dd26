"""The ``ppo`` bots and the learning scripts (docs/learning.md): a short training runs end to
end and its model plays whole games through ``sleuth play``; a model's games depend only on
the seed; a model is refused for a game it was not trained on; the web app plays no file a
user names; without the learn extra the bot says which extra to install, and playing or listing
the games imports neither torch nor sb3-contrib."""

from __future__ import annotations

import json
import re
import runpy
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from sleuth.core.errors import OptionError
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.search.learned import PolicyError, load_policy
from tests.cli_helpers import COMMAND, one_json_object

ROOT = Path(__file__).resolve().parents[2]
STUDIES = ROOT / "studies"
SCRIPTS = {"camel-up": STUDIES / "learn_camel_up.py", "fugitive": STUDIES / "learn_marshal.py"}
FIELDS = {"camel-up": "ppo:model={},ev,random,random", "fugitive": "heuristic,ppo:model={}"}
GAMES = sorted(SCRIPTS)
"""The games with a learning script and a ``ppo`` bot."""

needs_learn = pytest.mark.skipif(
    any(
        subprocess.run([sys.executable, "-c", f"import {m}"], capture_output=True).returncode
        for m in ("torch", "sb3_contrib", "gymnasium")
    ),
    reason="needs the learn extra (torch's CPU build, then pip install -e '.[learn]')",
)


def setting_of(game: str) -> Any:
    """The learning script's :class:`Setting` for ``game`` (the scripts import from their
    folder, as they run)."""
    sys.path.insert(0, str(STUDIES))
    try:
        return runpy.run_path(str(SCRIPTS[game]))["SETTING"]
    finally:
        sys.path.remove(str(STUDIES))


def options_of(game: str) -> dict[str, Any]:
    """The options ``game``'s learning script trains with by default (a model plays those
    only)."""
    return dict(setting_of(game).options)


def shipped_model(game: str) -> Path:
    """The model Sleuth ships for ``game`` (its learning script's ``SHIPPED``)."""
    sys.path.insert(0, str(STUDIES))
    try:
        return Path(runpy.run_path(str(SCRIPTS[game]))["SHIPPED"])
    finally:
        sys.path.remove(str(STUDIES))


def encoding_of(game: str) -> Any:
    """The encoding of ``game`` with the options its learning script trains with."""
    spec = game_spec(game)
    return spec.encoding_for(spec.make(options_of(game)))


def untrained(game: str, path: Path) -> Path:
    """A model of the learning script's setting for ``game``, initialised from a fixed seed
    and saved untrained: a policy that plays whole games, made in a second."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from sleuth.search.learned import TRAINED_ON, learning_libraries, trained_on

    setting = setting_of(game)
    environments = sys.modules["_learning"].environments
    env = environments(setting)[0]
    model = learning_libraries()("MlpPolicy", DummyVecEnv([lambda: env]), seed=0, device="cpu")
    setattr(model, TRAINED_ON, trained_on(env.unwrapped.encoding, setting.role, setting.belief))
    model.save(path)
    return path


def play(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, "play", *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


@needs_learn
@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_quick_training_runs_end_to_end_and_its_model_plays(game: str, tmp_path: Path) -> None:
    import torch

    from sleuth.search.learned import TRAINED_ON
    from sleuth.search.learned import learning_libraries as ppo_class

    model = tmp_path / "model.zip"
    trained = subprocess.run(
        [sys.executable, str(SCRIPTS[game]), "train", "--quick", "--model", str(model)],
        cwd=tmp_path, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert trained.returncode == 0, trained.stderr
    assert f"imitated {setting_of(game).teacher} in 4 games" in trained.stdout
    assert "trained 2,048 steps" in trained.stdout
    assert 10_000 < model.stat().st_size < 1_000_000  # small enough to ship
    recorded = getattr(ppo_class().load(model), TRAINED_ON)["options"]
    assert {key: recorded[key] for key in options_of(game)} == options_of(game)
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == ["model-0.zip", "model-2048.zip", "model.zip"]  # imitation, PPO, the last
    ppo = ppo_class()
    copy, last = (ppo.load(tmp_path / name).policy.state_dict() for name in made[1:])
    assert all(torch.equal(copy[key], last[key]) for key in last)  # the copy after the update
    evaluated = subprocess.run(
        [sys.executable, str(SCRIPTS[game]), "evaluate", "--quick", str(model)],
        cwd=tmp_path, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert evaluated.returncode == 0, evaluated.stderr
    assert evaluated.stdout.startswith("| model.zip | 4 | ") and "| ppo " in evaluated.stdout
    assert re.search(r"\| draws \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] \|$", evaluated.stdout.strip())
    more = tmp_path / "more.zip"  # the trained model goes on training, and plays
    went_on = subprocess.run(
        [sys.executable, str(SCRIPTS[game]), "train", "--quick", "--start", str(model),
         "--model", str(more)],
        cwd=tmp_path, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert went_on.returncode == 0, went_on.stderr
    assert "trained 4,096 steps" in went_on.stdout  # counted on from the model's 2,048
    options = [f"-o{key}={value}" for key, value in options_of(game).items()]
    bots = FIELDS[game].format(more)
    done = play(
        [game, "--bots", bots, *options, "-n", "2", "--json", "-w", "1", "--no-db"], tmp_path
    )
    assert done.returncode == 0, done.stderr
    summary = one_json_object(done.stdout)
    assert summary["games"] == 2 and summary["forfeits"] == 0, json.dumps(summary)


@needs_learn
@pytest.mark.parametrize("game", GAMES)
def test_a_models_games_depend_only_on_the_seed(game: str) -> None:
    model = shipped_model(game)  # (an untrained Marshal may never end a game without a limit)
    spec = game_spec(game)
    bots = [spec.bot(name) for name in FIELDS[game].format(model).split(",")]
    seat = next(s for s, b in enumerate(bots) if b.name.startswith("ppo"))
    records = []
    for seed in (5, 5, 6):
        record = run_match(spec.make(options_of(game)), bots, seed)
        assert not record.forfeits
        records.append([(step.seat, repr(step.action)) for step in record.steps])
    assert records[0] == records[1]
    assert records[0] != records[2]
    assert any(s == seat for s, _ in records[0])  # the model played


@needs_learn
def test_a_model_is_refused_for_other_options_or_another_role(tmp_path: Path) -> None:
    model = untrained("camel-up", tmp_path / "model.zip")
    spec = game_spec("camel-up")
    ppo = spec.bot(f"ppo:model={model}")
    with pytest.raises(Exception, match=r"trained with options .*cannot play"):
        ppo.make(spec.make({"players": 3}), 0, 1)
    ppo.make(spec.make({"players": 4}), 0, 1)  # its own options: accepted
    other = game_spec("scotland-yard")
    encoding = other.encoding_for(other.make({}))
    with pytest.raises(PolicyError, match=r"trained with game 'camel-up', cannot play 'scotland"):
        load_policy(model, encoding, "detectives")
    with pytest.raises(Exception, match=r"no model at .*nothing\.zip"):
        spec.bot(f"ppo:model={tmp_path / 'nothing.zip'}").make(spec.make({}), 0, 1)


@needs_learn
def test_the_shipped_marshal_refuses_a_game_without_its_round_limit(tmp_path: Path) -> None:
    # trained with max_rounds=50: without a limit a game may go round in circles (F29), so
    # the bot forfeits at once, naming the options it was trained with and those it was given
    done = play(["fugitive", "--bots", "heuristic,ppo", "-n", "2", "--json", "--no-db"], tmp_path)
    assert "Traceback" not in done.stderr
    summary = one_json_object(done.stdout)
    assert summary["games"] == 2 and summary["forfeits"] == 2, json.dumps(summary)
    assert re.search(
        r"ppo\.zip: trained with options \{[^}]*'max_rounds': 50\}, "
        r"cannot play \{[^}]*'max_rounds': 0\}",
        done.stderr,
    ), done.stderr
    limited = play(
        ["fugitive", "--bots", "heuristic,ppo", "-o", "max_rounds=50", "-n", "2", "--json",
         "--no-db"],
        tmp_path,
    )  # fmt: skip
    assert one_json_object(limited.stdout)["forfeits"] == 0, limited.stderr


def test_the_marshal_script_names_its_round_limit(tmp_path: Path) -> None:
    helped = subprocess.run(
        [sys.executable, str(SCRIPTS["fugitive"]), "train", "--help"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert helped.returncode == 0, helped.stderr
    assert "--max-rounds" in helped.stdout and "default: 50" in helped.stdout
    assert options_of("fugitive") == {"max_rounds": 50}
    for command in ("train", "evaluate"):
        refused = subprocess.run(
            [sys.executable, str(SCRIPTS["fugitive"]), command, "--max-rounds", "-1"],
            cwd=tmp_path, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert refused.returncode == 2
        assert "argument --max-rounds: " in refused.stderr and "Traceback" not in refused.stderr
        assert not list(tmp_path.iterdir())  # nothing trained, nothing written


@needs_learn
def test_the_teachers_games_may_be_played_against_other_bots() -> None:
    setting = setting_of("fugitive")
    environments = sys.modules["_learning"].environments
    for against, names in [(None, ["heuristic"]), ("elusive", ["elusive"])]:
        made = environments(setting, against)
        assert [bot.name for env in made for bot in env.unwrapped.opponents.values()] == names
        assert all(env.unwrapped.game.max_rounds == 50 for env in made)


@needs_learn
@pytest.mark.parametrize("game", GAMES)
def test_a_model_of_another_encoding_version_is_refused_naming_both(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sleuth.search.learned import TRAINED_ON, learning_libraries

    model = untrained(game, tmp_path / "model.zip")
    encoding, role = encoding_of(game), setting_of(game).role
    version = encoding.version
    load_policy(model, encoding, role)  # its own version: accepted
    monkeypatch.setattr(type(encoding), "version", version + 1)
    with pytest.raises(
        PolicyError,
        match=rf"model\.zip: trained on version {version} of {game}'s encoding, this Sleuth's "
        rf"is version {version + 1}: train it again",
    ):
        load_policy(model, encoding, role)
    monkeypatch.undo()
    old = learning_libraries().load(model)  # as saved before models recorded the version
    del getattr(old, TRAINED_ON)["encoding"]
    old.save(tmp_path / "old.zip")
    with pytest.raises(
        PolicyError, match=rf"old\.zip: trained on version None of {game}'s encoding"
    ):
        load_policy(tmp_path / "old.zip", encoding, role)


@needs_learn
@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_model_records_its_encoding_version_and_is_small(game: str) -> None:
    from sleuth.search.learned import TRAINED_ON

    shipped = shipped_model(game)
    assert shipped.stat().st_size < 700_000  # a few hundred KB
    encoding = encoding_of(game)
    model, belief = load_policy(shipped, encoding, setting_of(game).role)
    assert getattr(model, TRAINED_ON)["encoding"] == encoding.version
    assert belief == setting_of(game).belief


@needs_learn
def test_a_bad_model_file_is_refused_by_name(tmp_path: Path) -> None:
    from stable_baselines3.common.vec_env import DummyVecEnv

    from sleuth.search.learned import learning_libraries

    encoding = encoding_of("fugitive")
    (tmp_path / "text.zip").write_text("not a model")
    with zipfile.ZipFile(tmp_path / "empty.zip", "w") as empty:
        empty.writestr("data", "")
    setting = setting_of("fugitive")
    env = sys.modules["_learning"].environments(setting)[0]
    foreign = learning_libraries()("MlpPolicy", DummyVecEnv([lambda: env]), device="cpu")
    foreign.save(tmp_path / "foreign.zip")  # a MaskablePPO model, but not Sleuth's
    for name, reason in [
        ("text.zip", "not a model MaskablePPO can load"),
        ("empty.zip", "not a model MaskablePPO can load"),
        ("foreign.zip", "not a Sleuth model"),
        ("absent.zip", "no model at"),
    ]:
        with pytest.raises(PolicyError, match=rf"{name}.*{reason}|{reason}.*{name}"):
            load_policy(tmp_path / name, encoding, "marshal")
    done = play(
        ["fugitive", "--bots", "heuristic,ppo:model=text.zip", "-n", "1", "--no-db"], tmp_path
    )
    assert "Traceback" not in done.stderr  # the bot forfeits its game, saying why
    assert "could not start: PolicyError: " in done.stderr
    assert "text.zip: not a model MaskablePPO can load" in done.stderr


@pytest.mark.parametrize("game", GAMES)
def test_the_web_app_plays_no_model_file_a_user_names(game: str) -> None:
    spec = game_spec(game)
    with pytest.raises(
        OptionError, match=r"option model='/tmp/x\.zip' of bot 'ppo'.* names a file"
    ):
        spec.bot("ppo:model=/tmp/x.zip", interactive=True)
    assert spec.bot("ppo", interactive=True).name == "ppo"  # the shipped model
    assert spec.bot("ppo:model=/tmp/x.zip").name == "ppo:model=/tmp/x.zip"  # the command line


@pytest.mark.parametrize("missing", ["torch", "sb3_contrib"])
def test_without_the_learn_extra_the_bot_names_it(missing: str, tmp_path: Path) -> None:
    program = (
        f"import sys; sys.modules[{missing!r}] = None\n"  # importing it fails, as if absent
        "from sleuth.cli import main\n"
        "sys.argv = ['sleuth', 'play', 'camel-up', '--bots', 'ppo,ev,random,random', '-n', '1',"
        " '--no-db']\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert f"error: {missing} is not installed: learned players need the learn extra" in (
        done.stderr
    )
    assert "pip install 'sleuth[learn]'" in done.stderr


def test_playing_and_listing_import_no_learning_library(tmp_path: Path) -> None:
    program = (
        "import sys, json\n"
        "from sleuth.core.registry import game_spec\n"
        "from sleuth.core.match import run_match\n"
        f"for name in {GAMES!r}:\n"
        "    spec = game_spec(name)\n"
        "    [bot.name for bot in spec.bots]\n"
        "    spec.bot('ppo:model=x.zip')\n"
        "    game = spec.make({})\n"
        "    run_match(game, [spec.bot('random')] * len(game.roles), 3)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('torch', 'sb3_contrib', 'stable_baselines3', 'gymnasium'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
