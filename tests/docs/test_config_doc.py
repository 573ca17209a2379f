"""docs/config.md is generated from the config types and cannot drift."""

from __future__ import annotations

import difflib
import itertools
import re
from pathlib import Path

import msgspec
import msgspec.inspect as mi
import pytest

from vac.daemon import config_doc
from vac.daemon.config import VacConfig, decode_config, intent_config
from vac.daemon.engines import Providers

CONFIG_MD = Path(__file__).resolve().parents[2] / "docs" / "config.md"


def test_docs_config_md_is_what_the_generator_prints() -> None:
    if not CONFIG_MD.exists():
        pytest.fail("docs/config.md is missing — run make docs", pytrace=False)
    written, generated = CONFIG_MD.read_text(), config_doc.render()
    if written != generated:
        # What to do first, then the start of the difference (not two whole pages).
        diff = difflib.unified_diff(
            written.splitlines(),
            generated.splitlines(),
            "docs/config.md",
            "generated",
            n=1,
            lineterm="",
        )
        head = "\n".join(itertools.islice(diff, 30))
        pytest.fail(f"docs/config.md is stale — run make docs\n{head}", pytrace=False)


def test_every_table_of_vac_toml_is_documented() -> None:
    info = mi.type_info(VacConfig)
    assert isinstance(info, mi.StructType)
    keys = {f.encode_name for f in info.fields}
    assert {s.key for s in config_doc.SECTIONS} == keys


@pytest.mark.parametrize("section", config_doc.SECTIONS, ids=lambda s: s.heading)
def test_every_key_has_a_row_with_a_description(section: config_doc.Section) -> None:
    info = mi.type_info(section.struct)
    assert isinstance(info, mi.StructType)
    table = "\n".join(config_doc.render_section(section))
    for field in info.fields:
        assert config_doc.description(field), f"{section.heading} {field.name}: no description"
        assert re.search(rf"^\| `{field.encode_name}` \|", table, re.M), field.name


def test_bounds_and_defaults_come_from_the_types() -> None:
    text = config_doc.render()
    assert "| `heartbeat_ms` | integer | `10000` | 500–600000 |" in text
    assert "| `transcripts_days` | integer | `30` | 0–36500 |" in text
    assert "| `draft_ttl_s` | integer | `86400` | 60–2592000 |" in text
    assert "| `name` | string | required | matches `^[A-Za-z][A-Za-z' -]{0,47}$` |" in text
    assert "| `model_dir` | string | unset |" in text
    assert "at least 1 entry" in text


def test_a_missing_description_is_refused() -> None:
    class Bare(msgspec.Struct):
        x: int = 1

    with pytest.raises(ValueError, match=r"Bare\.x has no Meta"):
        config_doc.render_section(config_doc.Section("bare", Bare, "-"))


def test_the_spelled_out_defaults_decode_to_the_defaults() -> None:
    text = config_doc.render()
    example = re.search(r"```toml\n(.*?)```", text, re.S)
    assert example is not None
    cfg = decode_config(example.group(1).encode())
    empty = decode_config(b"")
    assert cfg.daemon == empty.daemon
    assert cfg.retention == empty.retention
    assert Providers.from_config(cfg) == Providers.from_config(empty)
    assert intent_config(cfg) == intent_config(empty)
