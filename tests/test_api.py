"""The public face: one version everywhere, category names accepted in any
spelling by every function that takes one, deprecated names that still
work, configuration errors of their own, random hands."""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

import prial
from prial.cli import main

SPELLINGS = ["RUNNING_FLUSH", "running_flush", "running flush", "Running Flush", prial.Category.RUNNING_FLUSH, 4]


def test_one_version_everywhere(capsys):
    assert prial.__version__ == importlib.metadata.version("prial")
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"prial {prial.__version__}"


def test_the_namespace_holds_only_what_it_means():
    assert "annotations" not in dir(prial)
    missing = [name for name in prial.__all__ if not hasattr(prial, name)]
    assert missing == []


@pytest.mark.parametrize("spelling", SPELLINGS, ids=str)
def test_category_names_in_any_spelling(spelling):
    assert prial.categories.parse_category(spelling) is prial.Category.RUNNING_FLUSH
    deal = "Ah Kh Qh 9c 9d 9s 2c 3d 5h 7s 8c Td Js"
    assert prial.partition(deal, min_category=spelling) == prial.partition(deal, min_category="RUNNING_FLUSH")
    players = [prial.CrashPlayer("a", ["Ah Kh Qh"], "9c 9d 9s 2c 3d 5h 7s 8c Td Js"),
               prial.CrashPlayer("b", ["2h 3h 4h"], "6c 6d 6s Kc Kd Ks 4c 4d 4s Qc")]
    result = prial.crash_showdown(players, min_category=spelling)
    assert [p.fouled for p in result.players] == [False, False]


@pytest.mark.parametrize("bad", ["running-flushes", "", 6, -1, True, 2.0, None])
def test_unknown_categories_are_named(bad):
    with pytest.raises(prial.ConfigurationError, match="min_category") as info:
        prial.categories.parse_category(bad, "min_category")
    assert info.value.field == "min_category"


def test_cli_takes_category_names_in_any_spelling(capsys):
    deal = "Ah Kh Qh 9c 9d 9s 2c 3d 5h 7s 8c Td Js"
    outputs = []
    for spelling in ("RUNNING_FLUSH", "running flush"):
        assert main(["partition", deal, "--min-category", spelling, "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report.pop("min_category") == spelling
        outputs.append(report)
    assert outputs[0] == outputs[1] and set(outputs[0]["categories"]) <= {"RUNNING_FLUSH", "PRIAL"}


def test_deprecated_pay_table_names_still_work():
    with pytest.warns(DeprecationWarning, match="CASINO_BRAG_PAYTABLE"):
        old = prial.SPEC_PAYTABLE
    assert old is prial.CASINO_BRAG_PAYTABLE and old.name == "casino_brag"
    with pytest.warns(DeprecationWarning, match="'casino_brag'"):
        settled = prial.settle_casino("Ah Ad As", "Kc Qd 2h", 10, 10, paytable="spec")
    assert settled == prial.settle_casino("Ah Ad As", "Kc Qd 2h", 10, 10, paytable="casino_brag")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert prial.house_edge().paytable == "casino_brag"  # the default warns of nothing
    with pytest.raises(AttributeError):
        prial.NO_SUCH_NAME  # noqa: B018


def test_log_scoring_loads_on_first_use():
    code = ("import sys, prial\n"
            "assert 'pyarrow' not in sys.modules and 'prial.score.job' not in sys.modules\n"
            "assert callable(prial.score_file) and callable(prial.score.sample_deals)\n"
            "assert 'pyarrow' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_configuration_errors_name_the_option_and_file(tmp_path):
    from prial.server import ServeOptions, build_server

    missing = str(tmp_path / "nope.pem")
    empty = tmp_path / "tokens"
    empty.write_text("# no token here\n")
    cases = [
        (ServeOptions(port=0, tls_cert=missing, tls_key=missing), "--tls-key .*nope.pem"),
        (ServeOptions(port=0, tls_client_ca=missing), "--tls-client-ca needs --tls-cert"),
        (ServeOptions(port=0, auth_token_file=missing), "--auth-token-file .*nope.pem"),
        (ServeOptions(port=0, auth_token_file=str(empty)), "holds no token"),
    ]
    for options, message in cases:
        with pytest.raises(prial.ConfigurationError, match=message):
            asyncio.run(build_server(options))
    assert not issubclass(prial.ConfigurationError, prial.InvalidHandError)


def test_serve_with_a_missing_tls_file_says_so_in_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "prial", "serve", "--port", "0", "--tls-cert", str(tmp_path / "c"),
                           "--tls-key", str(tmp_path / "k")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1  # a file at fault: a run-time failure
    assert done.stderr.startswith("prial: error: --tls-cert") and done.stderr.count("\n") == 1


def test_random_hands():
    hands = prial.random_hands(10_000, 5, seed=3)
    assert hands.dtype == np.uint8 and hands.shape == (10_000, 5)
    assert (np.sort(hands, axis=1)[:, 1:] != np.sort(hands, axis=1)[:, :-1]).all()  # distinct in a row
    assert hands.max() < 52 and len(np.unique(hands)) == 52
    assert np.array_equal(hands, prial.random_hands(10_000, 5, seed=3))
    assert not np.array_equal(hands, prial.random_hands(10_000, 5, seed=4))
    assert prial.random_hands(1000, 3, seed=1, pack=55).max() >= 52  # jokers dealt too
    prial.evaluate_batch(prial.random_hands(100, seed=0))  # ready for the batch functions
    for bad in ({"rows": -1}, {"width": 0}, {"width": 53}, {"pack": 56}, {"rows": 2.5}):
        with pytest.raises(prial.ConfigurationError, match=next(iter(bad))):
            prial.random_hands(**{"rows": 5, "width": 3, **bad})


def test_the_evaluator_shows_public_methods_only():
    private = [name for name in dir(prial.Evaluator) if name.startswith("_") and not name.startswith("__")]
    assert private in ([], ["_pybind11_conduit_v1_"])  # pybind11's own hook on every bound class
    ev = prial.Evaluator(prial.Rules(preset="three_card_poker"))
    assert ev.category_order[:2] == [prial.Category.RUNNING_FLUSH, prial.Category.PRIAL]
    assert ev.categories[ev.evaluate("As Ks Qs").strength] == prial.Category.RUNNING_FLUSH


def test_signatures_are_readable():
    import inspect

    assert list(inspect.signature(prial.partition).parameters) == [
        "cards", "hands", "objective", "min_category", "opponents", "crash_value", "four_order"]
    assert list(inspect.signature(prial.evaluate).parameters) == ["hand"]
    assert list(inspect.signature(prial.evaluate_batch).parameters) == ["hands", "threads", "cancel"]
    assert prial.evaluate.__doc__ and prial.partition.__doc__


def test_every_result_has_to_dict_and_as_dict_is_a_deprecated_alias(tmp_path):
    ev = prial.Evaluator()
    results = [ev.evaluate("As Ad Ah"), ev.best_of("As Ad Ah Kd"),
               ev.partition("As Ad Ah Kd Kh Ks 2c 3c 4c 5d 6d 7d 9h")]
    for result in results:
        data = result.to_dict()
        assert json.loads(json.dumps(data)) == data, type(result).__name__
    assert results[0].to_dict() == {"strength": results[0].strength, "category": "PRIAL", "cards": [51, 49, 50],
                                    "description": "Prial of aces"}
    assert results[2].to_dict()["categories"][0] == "PRIAL"

    log = tmp_path / "log.csv"
    prial.write_sample_log(str(log), 50, seed=1)
    summary = prial.score_file(log, tmp_path / "out.csv")
    audit = prial.audit_file(log)
    for result in (summary, audit):
        data = result.to_dict()
        assert json.loads(json.dumps(data, default=str)) == json.loads(json.dumps(data, default=str))
        with pytest.warns(DeprecationWarning, match=r"as_dict\(\) is deprecated; use to_dict\(\)"):
            assert result.as_dict() == data
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        summary.to_dict()
        audit.to_dict()


@pytest.mark.parametrize("module", ["prial", "prial.score", "prial.audit"])
def test_dir_shows_the_names_loaded_on_first_use_and_hides_the_helpers(module):
    imported = importlib.import_module(module)
    names = dir(imported)
    assert set(imported.__all__) <= set(names)
    assert not {"Any", "TYPE_CHECKING", "warnings", "lazy_names", "public_dir"} & set(names)
    assert all(hasattr(imported, name) for name in names)


def test_dir_of_prial_names_the_lazy_functions_without_loading_them():
    script = ("import sys, prial\n"
              "names = dir(prial)\n"
              "print(all(n in names for n in ('score_file', 'audit_file', 'sample_deals', 'ScoreOptions')),\n"
              "      'pyarrow' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout == "True False\n", done.stderr
