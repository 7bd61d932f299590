"""The ladder's rungs and the recording helper docs/record-ladder.sh reads: each rung's
template is shipped, sizes climb, names carry the template, and the helper names the task
argument and the public tasks of every world, refusing an unknown rung or world."""

import subprocess

from checkout_consent.cli.ladder import main, parts_line
from checkout_consent.families import WORLDS
from checkout_consent.runtime.chat_template import TEMPLATES
from checkout_consent.runtime.ladder import LADDER, NATIVE_RUNS, REAL
from checkout_consent.runtime.meta import task_params
from checkout_consent.runtime.provenance import REPO_ROOT


def test_ladder__rungs_climb_in_size_each_under_a_shipped_template_it_names():
    assert [r.params_m for r in LADDER] == sorted(r.params_m for r in LADDER)
    for rung in LADDER:
        form = "-".join(rung.template.split("-")[-2:])  # fenced-json, bare-json
        assert rung.template in TEMPLATES and rung.model.endswith(f"-{form}")
    assert all(r.template == "native" for r in NATIVE_RUNS)
    assert len(REAL) == len(LADDER) + len(NATIVE_RUNS)  # no two rows share a model name


def test_parts_line__every_world_names_its_task_argument_and_public_tasks():
    for world in WORLDS:
        model, template, key, tasks = parts_line(LADDER[0].slug, world.name).split(" ")
        assert model == LADDER[0].model and template == LADDER[0].template
        assert key in task_params(world) and tasks.split(",") == world.dataset.tasks()


def test_parts_line__an_unknown_rung_or_world_is_one_line(capsys):
    assert main(["parts", "nope", "pizza"]) == 2
    assert main(["parts", LADDER[0].slug, "nowhere"]) == 2
    assert main(["parts"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert "no rung 'nope'" in lines[0] and "nowhere" in lines[1]
    assert lines[2].startswith("usage:") and "required" in lines[3] and len(lines) == 4


def test_main__help_says_the_command_and_exits_zero(capsys):
    assert main(["--help"]) == 0
    assert "parts" in capsys.readouterr().out


def test_record_ladder__refuses_an_unknown_rung_before_anything_starts():
    script = REPO_ROOT / "docs" / "record-ladder.sh"
    done = subprocess.run(
        ["bash", str(script), "nope", "pizza"], capture_output=True, text=True, cwd=REPO_ROOT
    )
    assert done.returncode == 2 and "record-ladder: no rung nope" in done.stderr
