# NixOS module: services.vac, the vac daemon as a hardened systemd service.
#
#   services.vac = {
#     enable = true;
#     endpoint = "tcp://0.0.0.0:7707";
#     openFirewall = true;
#     enrolledKeys.alice = ./keys/alice.key;       # public keys only
#     settings.retention.transcripts_days = 7;     # vac.toml, docs/config.md
#   };
#
# It mirrors packaging/systemd/vac.service: the same user (a dedicated "vac"
# system user, not DynamicUser: see that file), the same [Service] settings
# (nix/hardening.nix, shared), Type=notify. As there, the unit never makes
# the daemon's keypair; once, before the first start, run
#   sudo -u vac vac keys init --home /var/lib/vac
# (docs/service.md).
{
  config,
  lib,
  pkgs,
  ...
}:
let
  inherit (lib) mkOption types;
  cfg = config.services.vac;
  toml = pkgs.formats.toml { };
  hardening = import ./hardening.nix;

  principalRe = "[a-z][a-z0-9_-]{0,31}";
  portMatch = builtins.match "tcp://.*:([0-9]+)" cfg.endpoint;
  tcpPort = if portMatch == null then null else lib.toInt (builtins.head portMatch);
  underStateDir = lib.hasPrefix "/var/lib/" cfg.home;

  vac = "${cfg.package}/bin/vac";
  home = lib.escapeShellArg cfg.home;
  configFile = toml.generate "vac.toml" (
    lib.recursiveUpdate cfg.settings { daemon.endpoint = cfg.endpoint; }
  );
  # `vac keys enroll` checks the principal, the key and "one key, one
  # principal", writes atomically and records an audit row; it runs only when
  # the enrolled copy differs, so a restart does not re-enrol.
  enrol =
    name: file:
    let
      public = lib.escapeShellArg "${file}";
    in
    ''
      if ! ${pkgs.diffutils}/bin/cmp -s ${public} ${home}/keys/enrolled/${name}.key; then
        ${vac} keys enroll ${name} --public ${public} --home ${home}
      fi
    '';
in
{
  options.services.vac = {
    enable = lib.mkEnableOption "vac, the local-first voice-session daemon";

    package = mkOption {
      type = types.package;
      default = pkgs.callPackage ./package.nix { };
      defaultText = lib.literalExpression "pkgs.callPackage ./nix/package.nix { }";
      description = ''
        The vac package. The flake's `nixosModules.default` sets it to the
        flake's `packages.''${system}.default`.
      '';
    };

    endpoint = mkOption {
      type = types.str;
      default = "tcp://127.0.0.1:7707";
      example = "tcp://0.0.0.0:7707";
      description = ''
        Where the daemon listens: `tcp://HOST:PORT` or `ipc://PATH`, written
        to `[daemon] endpoint` of vac.toml. The default is reachable from
        this host only; clients on other machines need a LAN address (and
        `openFirewall`).
      '';
    };

    home = mkOption {
      type = types.str;
      default = "/var/lib/vac";
      description = ''
        The daemon's home: keys/, clients/, vac.toml, vac.db. Owned by the
        vac user, mode 0700. Under /var/lib it is the unit's StateDirectory.
      '';
    };

    settings = mkOption {
      type = toml.type;
      default = { };
      example = lib.literalExpression ''
        {
          retention.transcripts_days = 7;
          daemon.max_sessions_per_principal = 4;
        }
      '';
      description = ''
        vac.toml (every key is in docs/config.md). HOME/vac.toml becomes a
        link to the rendered file: edits on the host are replaced at the
        next start. Set the endpoint with `services.vac.endpoint`, not
        `settings.daemon.endpoint`.
      '';
    };

    enrolledKeys = mkOption {
      type = types.attrsOf types.path;
      default = { };
      example = lib.literalExpression "{ alice = ./keys/alice.key; }";
      description = ''
        Principal → client **public** key file (`vac keys new` writes it as
        NAME.key). Each is enrolled as HOME/keys/enrolled/PRINCIPAL.key before
        the daemon starts. Principals enrolled by hand with `vac keys enroll`
        are left alone; removing a name here does not revoke it (run
        `vac keys revoke NAME`).
      '';
    };

    openFirewall = mkOption {
      type = types.bool;
      default = false;
      description = "Open the endpoint's TCP port in the firewall.";
    };
  };

  config = lib.mkIf cfg.enable {
    assertions = [
      {
        assertion = builtins.match "/[A-Za-z0-9._/-]+" cfg.home != null;
        message = "services.vac.home must be an absolute path of [A-Za-z0-9._/-]";
      }
      {
        assertion = !(lib.any (p: lib.hasPrefix p cfg.home) [ "/home/" "/root/" "/run/user/" ]);
        message = "services.vac.home cannot be under /home, /root or /run/user (ProtectHome=yes)";
      }
      {
        assertion = lib.all (n: builtins.match principalRe n != null) (
          builtins.attrNames cfg.enrolledKeys
        );
        message = "services.vac.enrolledKeys: each principal must match ^${principalRe}$";
      }
      {
        assertion = !(cfg.settings ? daemon && cfg.settings.daemon ? endpoint);
        message = "set services.vac.endpoint instead of services.vac.settings.daemon.endpoint";
      }
      {
        assertion = cfg.openFirewall -> tcpPort != null;
        message = "services.vac.openFirewall needs a tcp://HOST:PORT endpoint";
      }
    ];

    warnings = lib.optional (cfg.openFirewall && lib.hasPrefix "tcp://127." cfg.endpoint) (
      "services.vac.openFirewall is set but the endpoint ${cfg.endpoint} is loopback only"
    );

    users.users.vac = {
      isSystemUser = true;
      group = "vac";
      home = cfg.home;
      description = "vac voice-session daemon";
    };
    users.groups.vac = { };

    # `vac` for the admin commands (`sudo -u vac vac keys ...`).
    environment.systemPackages = [ cfg.package ];

    # The home exists before the first start, so `vac keys init` can run.
    systemd.tmpfiles.rules = [ "d ${cfg.home} 0700 vac vac -" ];

    networking.firewall.allowedTCPPorts = lib.optional (cfg.openFirewall && tcpPort != null) tcpPort;

    systemd.services.vac = {
      description = "vac voice-session daemon";
      wantedBy = [ "multi-user.target" ];
      wants = [ "network-online.target" ];
      after = [ "network-online.target" ];
      environment = {
        VAC_LOG_LEVEL = "info";
        XDG_CACHE_HOME = "/var/cache/vac";
      };
      # As the vac user, inside the same sandbox as the daemon.
      preStart = ''
        ln -sfn ${configFile} ${home}/vac.toml
      ''
      + lib.concatStrings (lib.mapAttrsToList enrol cfg.enrolledKeys);
      serviceConfig =
        hardening
        // {
          ExecStart = "${vac} daemon --home ${cfg.home}";
          User = "vac";
          Group = "vac";
        }
        // (
          if underStateDir then
            { StateDirectory = lib.removePrefix "/var/lib/" cfg.home; }
          else
            { ReadWritePaths = [ cfg.home ]; }
        );
    };
  };
}
