{
  description = "vac — a local-first voice-session daemon";
  # 25.11, not 24.11: the package needs setuptools >= 77 (pyproject.toml's
  # PEP 639 licence fields) and faster-whisper >= 1.1, which 24.11 lacks.
  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-25.11";
  outputs =
    { self, nixpkgs }:
    let
      systems = [
        "x86_64-linux"
        "aarch64-linux"
      ];
      forAll = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
      systemOf = pkgs: pkgs.stdenv.hostPlatform.system;

      # The NixOS module evaluated on its own (a container, no VM): the
      # unit it renders must carry every line of nix/hardening.nix.
      moduleCheck =
        pkgs:
        let
          inherit (nixpkgs) lib;
          os = lib.nixosSystem {
            modules = [
              self.nixosModules.default
              {
                nixpkgs.hostPlatform = systemOf pkgs;
                boot.isContainer = true;
                system.stateVersion = "25.11";
                services.vac = {
                  enable = true;
                  endpoint = "tcp://0.0.0.0:7707";
                  openFirewall = true;
                  enrolledKeys.alice = pkgs.writeText "alice.key" "";
                  settings.retention.transcripts_days = 7;
                };
              }
            ];
          };
          lines = lib.concatLists (
            lib.mapAttrsToList (k: v: map (x: "${k}=${toString x}") (lib.toList v)) (
              import ./nix/hardening.nix
            )
          );
          failed = map (a: a.message) (lib.filter (a: !a.assertion) os.config.assertions);
        in
        assert lib.assertMsg (failed == [ ]) (lib.concatLines failed);
        assert os.config.networking.firewall.allowedTCPPorts == [ 7707 ];
        assert os.config.users.users.vac.isSystemUser;
        pkgs.runCommand "vac-module-check"
          {
            unit = os.config.systemd.units."vac.service".unit;
            expected = pkgs.writeText "expected" (lib.concatLines lines);
          }
          ''
            while IFS= read -r line; do
              grep -qxF "$line" "$unit/vac.service" || { echo "missing: $line"; exit 1; }
            done < "$expected"
            grep -q '^ExecStart=.*/bin/vac daemon --home /var/lib/vac$' "$unit/vac.service"
            grep -qx 'StateDirectory=vac' "$unit/vac.service"
            touch "$out"
          '';
    in
    {
      packages = forAll (pkgs: rec {
        vac = pkgs.callPackage ./nix/package.nix { };
        default = vac;
      });

      apps = forAll (pkgs: {
        default = {
          type = "app";
          program = "${self.packages.${systemOf pkgs}.default}/bin/vac";
          meta.description = "the vac command line (vac daemon, vac keys, vac say, ...)";
        };
      });

      checks = forAll (pkgs: {
        # `pytest -m "not slow"` against the built package.
        unit = pkgs.callPackage ./nix/package.nix { withUnitTests = true; };
        module = moduleCheck pkgs;
      });

      devShells = forAll (pkgs: { default = import ./nix/shell.nix { inherit pkgs; }; });

      # services.vac (nix/module.nix), with this flake's package.
      nixosModules.default =
        { lib, pkgs, ... }:
        {
          imports = [ ./nix/module.nix ];
          services.vac.package = lib.mkDefault self.packages.${systemOf pkgs}.default;
        };
    };
}
