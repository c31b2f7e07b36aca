"""Hostile ``--out`` paths (issue 19, item 4): the output writer never clobbers what it is given.

Each kind of path a hostile user may give ``riskmath simulate --out`` or ``riskmath outlook --out``: a symbolic
link (to a file, to nothing, to a folder, to itself), a FIFO, a character device (``/dev/full``, ``/dev/null``), a
block device, a socket, standard output, a file the run reads, a read-only file or folder, a folder removed mid-run
and a disk that fills at the end.  Each either is written as documented in ``docs/limits.rst`` or is refused in
one line before any game; nothing that is not a regular file is ever replaced (the kinds are checked with
``os.lstat`` after), and results that cannot be saved are printed and kept in a copy.

The suite may run as root, which may write anywhere and replace a device node or a link in ``/dev``: so that a
writer that regressed cannot damage the machine, every path tried is in a temporary folder when running as root
(copies made with ``os.mknod``, a link of its own to ``/proc/self/fd/1``), never ``/dev/full`` or ``/dev/stdout``.
"""

from __future__ import annotations

import errno
import os
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

import riskmath as rm
from riskmath.cli import main

GAME = rm.Game(3, max_turns=40)
AGENTS = ["aggressive", "random", "aggressive"]
SIMULATE = ["simulate", "--players", "3", "--agents", ",".join(AGENTS), "--max-turns", "40"]
CLI = [sys.executable, "-c", "import sys; from riskmath.cli import main_exit; sys.argv[0] = 'riskmath'; main_exit()"]
ROOT = os.geteuid() == 0
#: A character device's (major, minor) on Linux, for a copy made as root.
DEVICES = {"/dev/full": (1, 7), "/dev/null": (1, 3)}


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def games(n, seed=0):
    return rm.simulate(GAME, [rm.agents.make_agent(name) for name in AGENTS], n, seed=seed)


def one_error_line(err, *fragments):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("riskmath: error: --out "), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, err)
    return lines[0]


def device(tmp_path, name):
    """``name`` (``/dev/full`` or ``/dev/null``), or a copy of it in ``tmp_path`` when running as root."""
    if not os.path.exists(name):
        pytest.skip(f"no {name}")
    if not ROOT:
        return name  # (a user cannot replace it: nothing in /dev is the user's to rename over)
    copy = str(tmp_path / os.path.basename(name))
    try:
        os.mknod(copy, stat.S_IFCHR | 0o666, os.makedev(*DEVICES[name]))
        os.close(os.open(copy, os.O_WRONLY))
    except OSError as error:  # a container without mknod, or a folder mounted nodev
        pytest.skip(f"cannot make a copy of {name} ({error.strerror})")
    return copy


def kind(path):
    return stat.S_IFMT(os.lstat(path).st_mode)


@pytest.fixture
def won(tmp_path):
    """A position where player 0 holds everything but Kamchatka: outlook's games end at once."""
    names = GAME.board.territories
    owners = dict.fromkeys(names, 0) | {"Kamchatka": 1}
    armies = dict.fromkeys(names, 5) | {"Kamchatka": 1}
    path = tmp_path / "won.json"
    path.write_text(GAME.position(owners, armies, seed=3).to_json())
    return path


def outlook(won, *extra):
    return ["outlook", str(won), "--agents", "aggressive", "--games", "6", *extra]


@pytest.fixture
def rescue(tmp_path, monkeypatch):
    """The temporary folder where a table that could not be saved is kept, empty at first."""
    import tempfile

    folder = tmp_path / "temporary"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


# -- symbolic links: followed, kept ----------------------------------------------------------------------------------
def test_a_link_to_a_file_writes_the_file_and_keeps_the_link(capsys, tmp_path):
    target = tmp_path / "real.csv"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(target.name)
    status, _, err = run(capsys, *SIMULATE, "--games", "3", "--out", str(link))
    assert status == 0, err
    assert stat.S_ISLNK(os.lstat(link).st_mode)
    assert os.readlink(link) == target.name
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640  # replaced through a temporary file, keeping its mode
    pd.testing.assert_frame_equal(pd.read_csv(target), games(3), check_dtype=False)
    assert sorted(os.listdir(tmp_path)) == ["link.csv", "real.csv"]  # no temporary file left


def test_a_dangling_link_creates_its_target(capsys, tmp_path, won):
    link = tmp_path / "link.csv"
    link.symlink_to("made.csv")
    status, _, err = run(capsys, *outlook(won, "--out", str(link)))
    assert status == 0, err
    assert stat.S_ISLNK(os.lstat(link).st_mode)
    assert pd.read_csv(tmp_path / "made.csv", index_col="player").loc[0, "victory"] == 1.0


@pytest.mark.parametrize(
    ("make", "fragments"),
    [
        (lambda tmp: (tmp / "link").symlink_to(tmp), ["is a link to", "a directory, not a file"]),
        (lambda tmp: (tmp / "link").symlink_to(tmp / "missing" / "x.csv"), ["whose folder does not exist"]),
        (lambda tmp: (tmp / "link").symlink_to("link"), ["cannot be written: Too many levels of symbolic links"]),
    ],
    ids=["to a directory", "into a missing folder", "to itself"],
)
def test_a_link_that_leads_nowhere_writable_is_refused_before_any_game(capsys, tmp_path, make, fragments):
    make(tmp_path)
    before = os.readlink(tmp_path / "link")
    start = time.monotonic()
    status, _, err = run(capsys, *SIMULATE, "--games", "1000000", "--out", str(tmp_path / "link"))  # none played
    assert time.monotonic() - start < 30  # a hang check
    assert status == 2
    one_error_line(err, *fragments)
    assert os.readlink(tmp_path / "link") == before


# -- a run refused for its arguments: the --out path as it was ---------------------------------------------------------
REFUSED = {
    "no games": [*SIMULATE, "--games", "0"],
    "an agent short": ["simulate", "--players", "3", "--agents", "aggressive,random", "--games", "2"],
    "too many games": [*SIMULATE, "--games", str(10**12)],
}


@pytest.mark.parametrize("argv", REFUSED.values(), ids=REFUSED.keys())
def test_a_refused_simulate_leaves_an_existing_file_as_it_was(capsys, tmp_path, argv):
    out = tmp_path / "keep.csv"
    out.write_text("my,precious\n1,2\n")
    status, _, err = run(capsys, *argv, "--out", str(out))
    assert status == 2
    assert err.startswith("riskmath: error: ")
    assert "--out" not in err
    assert out.read_text() == "my,precious\n1,2\n"


@pytest.mark.parametrize(
    "argv",
    [[*REFUSED["no games"], "--out"], ["outlook", "{bad}", "--out"], ["outlook", "{won}", "--games", "0", "--out"]],
    ids=["simulate", "outlook of a bad position", "outlook of no games"],
)
def test_a_refused_run_leaves_no_new_file(capsys, tmp_path, won, argv):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    argv = [a.format(bad=bad, won=won) for a in argv]
    out = tmp_path / "new.csv"
    status, _, err = run(capsys, *argv[:-1], "--out", str(out))
    assert status == 2, err
    assert not out.exists()


def test_a_refused_run_through_a_dangling_link_leaves_the_link_dangling(capsys, tmp_path):
    link = tmp_path / "link.csv"
    link.symlink_to("made.csv")
    status, _, _ = run(capsys, *REFUSED["no games"], "--out", str(link))
    assert status == 2
    assert os.readlink(link) == "made.csv"
    assert not (tmp_path / "made.csv").exists()


# -- things that are not regular files: written into, or refused; never replaced -------------------------------------
def test_a_fifo_is_written_into_and_kept(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as reader:  # waits for the writer, as the run waits for this reader
            received.append(reader.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    child = subprocess.run(
        [*CLI, *SIMULATE, "--games", "3", "--out", str(fifo)], capture_output=True, text=True, timeout=120
    )
    reader.join(timeout=30)
    if reader.is_alive():  # (a failing run never opened it: release the reader)
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert child.returncode == 0, child.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert received
    assert received[0].decode().splitlines()[0].startswith("seed,winner,draw,turns")
    assert len(received[0].decode().splitlines()) == 4  # the header and three games, written once, in seed order


@pytest.mark.parametrize("verb", ["simulate", "outlook"])
def test_dev_full_is_one_line_the_table_printed_and_a_copy_kept(capsys, tmp_path, won, rescue, verb):
    full = device(tmp_path, "/dev/full")
    before = os.lstat(full)
    argv = [*SIMULATE, "--games", "3"] if verb == "simulate" else outlook(won)
    status, text, err = run(capsys, *argv, "--out", full)
    assert status == 2
    line = one_error_line(err, f"--out {full!r} could not be written (No space left on device)", str(rescue))
    assert text.strip(), "the table is printed anyway"
    assert text == run(capsys, *argv)[1]  # as without --out
    after = os.lstat(full)
    assert stat.S_ISCHR(after.st_mode)
    assert after.st_rdev == before.st_rdev
    assert after.st_ino == before.st_ino
    (copy,) = rescue.iterdir()
    assert repr(str(copy)) in line
    if verb == "simulate":
        pd.testing.assert_frame_equal(pd.read_csv(copy), games(3), check_dtype=False)
    else:
        assert pd.read_csv(copy, index_col="player").loc[0, "victory"] == 1.0


def test_dev_null_is_written_into_and_kept(capsys, tmp_path):
    null = device(tmp_path, "/dev/null")
    before = os.lstat(null)
    status, text, err = run(capsys, *SIMULATE, "--games", "2", "--out", null)
    assert status == 0, err
    assert text.startswith("2 games, 3 players")
    after = os.lstat(null)
    assert stat.S_ISCHR(after.st_mode)
    assert after.st_ino == before.st_ino


def test_a_socket_is_refused_and_kept(capsys, tmp_path):
    path = tmp_path / "socket"
    with socket.socket(socket.AF_UNIX) as server:
        try:
            server.bind(str(path))
        except OSError as error:  # (a path too long for a socket address)
            pytest.skip(f"cannot bind a socket there: {error}")
        status, _, err = run(capsys, *SIMULATE, "--games", "1000000", "--out", str(path))
    assert status == 2
    one_error_line(err, "is a socket", "replaces only regular files")
    assert stat.S_ISSOCK(os.lstat(path).st_mode)


@pytest.mark.skipif(not ROOT, reason="making a device node needs root")
def test_a_block_device_is_refused_and_kept(capsys, tmp_path):
    path = tmp_path / "disk"
    try:
        os.mknod(path, stat.S_IFBLK | 0o600, os.makedev(0, 0))  # no device: opening it would fail (ENXIO)
    except OSError as error:
        pytest.skip(f"cannot make a device node ({error.strerror})")
    status, _, err = run(capsys, *SIMULATE, "--games", "1000000", "--out", str(path))
    assert status == 2
    one_error_line(err, "is a block device")
    assert stat.S_ISBLK(os.lstat(path).st_mode)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc/self/fd")
def test_standard_output_gets_the_csv_then_the_summary(tmp_path):
    # Standard output redirected to a file, and --out naming that same file: one stream, nothing overwritten.
    # The link is a copy of /dev/stdout in tmp_path: a writer that replaced links would replace only this one.
    stdout_link = tmp_path / "stdout"
    stdout_link.symlink_to("/proc/self/fd/1")
    both = tmp_path / "both.txt"
    with open(both, "w") as stdout:
        child = subprocess.run(
            [*CLI, *SIMULATE, "--games", "3", "--out", str(stdout_link)], stdout=stdout, stderr=subprocess.PIPE,
            text=True, timeout=120,
        )  # fmt: skip
    assert child.returncode == 0, child.stderr
    lines = both.read_text().splitlines()
    assert lines[0].startswith("seed,winner,draw,turns"), lines
    assert lines[4].startswith("3 games, 3 players")
    assert stat.S_ISREG(os.lstat(both).st_mode)
    assert stat.S_ISLNK(os.lstat(stdout_link).st_mode)


# -- regular files that cannot be replaced, or must not be ---------------------------------------------------------
def test_the_position_read_is_not_overwritten(capsys, won):
    before = won.read_bytes()
    status, _, err = run(capsys, *outlook(won, "--out", str(won)))
    assert status == 2
    one_error_line(err, "is the file being read")
    assert won.read_bytes() == before


@pytest.mark.parametrize("verb", ["simulate", "outlook"])
def test_proc_version_is_refused_even_as_root_before_any_game(capsys, rescue, won, verb):
    if not os.path.isfile("/proc/version"):
        pytest.skip("no /proc")
    # Root can open it for writing, and only the first write failed: a game (or all of outlook's) was played first,
    # and outlook blamed the temporary file it could not make in /proc (hostile CLI review, 2026-12-03).  A regular
    # file on a filesystem that stores nothing (no blocks, no inodes) is now refused before the work.
    before = Path("/proc/version").read_text()
    argv = [*SIMULATE, "--games", "3"] if verb == "simulate" else outlook(won)
    status, out, err = run(capsys, *argv, "--out", "/proc/version")
    assert status == 2
    one_error_line(err, "'/proc/version' is a file of the kernel's (on a filesystem that stores nothing")
    assert out == ""  # no game played, no table
    assert Path("/proc/version").read_text() == before
    assert os.listdir(rescue) == []


def test_the_position_read_from_standard_input_is_not_overwritten(tmp_path, won):
    # ``outlook -`` compared --out with the position's file only when it was given by name: ``< file`` was
    # overwritten with the table (hostile CLI review, 2026-12-03).
    before = won.read_bytes()
    with open(won, "rb") as position:
        result = subprocess.run(
            [*CLI, "outlook", "-", "--agents", "aggressive", "--games", "2", "--out", str(won)],
            stdin=position, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    assert result.returncode == 2
    one_error_line(result.stderr, "is the file being read (standard input): it would be overwritten")
    assert won.read_bytes() == before


def test_an_empty_out_path_is_refused(capsys, won):
    # ``--out ""`` was taken as no --out: the run wrote nothing and said nothing (hostile CLI review, 2026-12-03).
    for argv in ([*SIMULATE, "--games", "2"], outlook(won)):
        status, out, err = run(capsys, *argv, "--out", "")
        assert (status, out) == (2, "")
        one_error_line(err, "--out '' is not a file name")


def test_a_run_stopped_before_any_game_finished_leaves_the_file_as_it_was(capsys, tmp_path):
    # A stop with no game finished (an agent over its move time at the first move) replaced the file with a bare
    # header, although the file is emptied only when the first game is done (hostile CLI review, 2026-12-03).
    kept = tmp_path / "keep.csv"
    kept.write_text("precious\n")
    status, _, err = run(capsys, *SIMULATE, "--games", "3", "--move-time", "1e-9", "--out", str(kept))
    assert status == 2
    assert "kept the 0 games that finished; " in err
    assert f"{kept} left as it was" in err
    assert kept.read_text() == "precious\n"


def test_a_file_with_other_hard_links_is_rewritten_in_place(capsys, tmp_path):
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    first.write_text("old\n")
    os.link(first, second)
    status, _, err = run(capsys, *SIMULATE, "--games", "2", "--out", str(first))
    assert status == 0, err
    assert os.path.samefile(first, second)  # one file still, under both names
    pd.testing.assert_frame_equal(pd.read_csv(second), games(2), check_dtype=False)


@pytest.mark.skipif(ROOT, reason="root writes in a read-only folder anyway")
def test_a_writable_file_in_a_read_only_folder_is_rewritten_in_place(capsys, tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    out = folder / "out.csv"
    out.write_text("")
    folder.chmod(0o555)
    try:
        status, _, err = run(capsys, *SIMULATE, "--games", "2", "--out", str(out))
    finally:
        folder.chmod(0o755)
    assert status == 0, err
    pd.testing.assert_frame_equal(pd.read_csv(out), games(2), check_dtype=False)


def _limit_file_size(size):  # pragma: no cover -- runs in the child
    def limit() -> None:
        import resource
        import signal

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


@pytest.mark.skipif(sys.platform != "linux", reason="needs POSIX file size limits")
def test_a_header_that_does_not_fit_is_one_line_before_any_game(tmp_path):
    out = tmp_path / "out.csv"
    child = subprocess.run(
        [*CLI, *SIMULATE, "--games", "1000000", "--out", str(out)],
        capture_output=True, text=True, timeout=120, preexec_fn=_limit_file_size(10),
    )  # fmt: skip
    assert child.returncode == 2
    one_error_line(child.stderr, f"--out {str(out)!r} cannot be written: File too large")


# -- saving fails after the work is done: the table printed, a copy kept ---------------------------------------------
@pytest.mark.parametrize("verb", ["simulate", "outlook"])
def test_a_folder_removed_mid_run_prints_the_table_and_keeps_a_copy(capsys, tmp_path, won, rescue, monkeypatch, verb):
    import shutil

    from riskmath.sim import rollouts, simulation

    folder = tmp_path / "gone"
    folder.mkdir()
    module, name = (simulation, "simulate") if verb == "simulate" else (rollouts, "victory_probabilities")
    play = getattr(module, name)

    def remove_then_play(*args, **kwargs):
        shutil.rmtree(folder)
        return play(*args, **kwargs)

    monkeypatch.setattr(module, name, remove_then_play)
    argv = [*SIMULATE, "--games", "3"] if verb == "simulate" else outlook(won)
    status, text, err = run(capsys, *argv, "--out", str(folder / "out.csv"))
    assert status == 2
    if verb == "simulate":  # the rows go to the file as games finish: the first one stops the run, its game kept
        one_error_line(
            err, "cannot be written: No such file or directory; the games that finished (1) are in", str(rescue)
        )
        assert text == ""
        (copy,) = rescue.iterdir()
        pd.testing.assert_frame_equal(pd.read_csv(copy), games(1), check_dtype=False)
    else:  # written at the end: the table printed, a copy kept
        one_error_line(err, "could not be written (No such file or directory); the CSV is in", str(rescue))
        monkeypatch.undo()
        assert text == run(capsys, *argv)[1]
        (copy,) = rescue.iterdir()
    assert not folder.exists()  # (not made again)


def _disk_full(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_disk_full_at_the_end_of_outlook_still_prints_the_table(capsys, tmp_path, won, rescue, monkeypatch):
    out = tmp_path / "table.csv"
    out.write_text("old\n")
    monkeypatch.setattr("riskmath.cli._output._replace", _disk_full)
    status, text, err = run(capsys, *outlook(won, "--estimate", "--out", str(out)))
    assert status == 2
    one_error_line(err, f"--out {str(out)!r} could not be written (No space left on device)")
    assert text.splitlines()[0].startswith("<GameState turn 1, REINFORCE, player 0 to move>: 6 games played on")
    assert "estimate" in text.splitlines()[1]
    assert out.read_text() == "old\n"  # the old file is left whole
    (copy,) = rescue.iterdir()
    assert list(pd.read_csv(copy).columns) == ["player", "victory", "victory_low", "victory_high", "games", "estimate"]


def test_when_no_copy_can_be_kept_either_the_line_says_so(capsys, tmp_path, won, monkeypatch):
    import tempfile

    monkeypatch.setattr("riskmath.cli._output._replace", _disk_full)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    status, text, err = run(capsys, *outlook(won, "--out", str(tmp_path / "table.csv")))
    assert status == 2
    one_error_line(err, "(No space left on device), nor could a copy in", "(No such file or directory)")
    assert "draws (turn cap)" in text


def test_an_interrupted_run_whose_file_cannot_be_saved_says_where_its_games_are(capsys, tmp_path, rescue, monkeypatch):
    from riskmath.sim import simulation

    folder = tmp_path / "gone"
    folder.mkdir()
    kept = games(2)

    def interrupted(*args, **kwargs):
        import shutil

        shutil.rmtree(folder)
        raise rm.SimulationInterrupted(kept, 5)

    monkeypatch.setattr(simulation, "simulate", interrupted)
    status, _, err = run(capsys, *SIMULATE, "--games", "5", "--out", str(folder / "out.csv"))
    assert status == 130
    assert "kept the 2 of 5 games that finished; --out" in err
    assert "could not be written" in err
    (copy,) = rescue.iterdir()
    pd.testing.assert_frame_equal(pd.read_csv(copy), kept, check_dtype=False)


def test_a_path_of_a_hundred_thousand_characters_is_shortened_in_the_one_line(capsys, tmp_path):
    # Other messages shorten long values; a 100,000-character --out path or position was echoed whole, a 100 kB
    # error line (hostile CLI review, 2026-12-03).
    long = str(tmp_path / ("x" * 100_000))
    status, _, err = run(capsys, *SIMULATE, "--games", "2", "--out", long)
    assert status == 2
    line = one_error_line(err, "(100", "characters)")
    assert len(line) < 600
    status, _, err = run(capsys, "outlook", long, "--agents", "aggressive")
    assert status == 2
    assert len(err) < 600
    assert err.startswith("riskmath: error: position ")
