# The [Service] settings that packaging/systemd/vac.service and the NixOS
# module (nix/module.nix) share: behaviour and sandbox. The reasons for each
# choice (why AF_NETLINK, why no MemoryDenyWriteExecute, why not ~@resources)
# are the comments in packaging/systemd/vac.service. tests/test_packaging.py
# evaluates this file and fails when the unit and it differ.
#
# Not here, because the module sets them from its options: ExecStart, User,
# Group, StateDirectory, Environment.
{
  Type = "notify";
  StateDirectoryMode = "0700";
  CacheDirectory = "vac";
  CacheDirectoryMode = "0700";
  UMask = "0077";
  TimeoutStartSec = "120";
  KillSignal = "SIGTERM";
  TimeoutStopSec = "10";
  Restart = "on-failure";
  RestartSec = "2";
  RestartPreventExitStatus = "2";

  NoNewPrivileges = "yes";
  CapabilityBoundingSet = "";
  PrivateUsers = "yes";
  ProtectSystem = "strict";
  ProtectHome = "yes";
  PrivateTmp = "yes";
  PrivateDevices = "yes";
  PrivateMounts = "yes";
  ProtectProc = "invisible";
  ProtectKernelTunables = "yes";
  ProtectKernelModules = "yes";
  ProtectKernelLogs = "yes";
  ProtectControlGroups = "yes";
  ProtectClock = "yes";
  ProtectHostname = "yes";
  RestrictNamespaces = "yes";
  RestrictSUIDSGID = "yes";
  RemoveIPC = "yes";
  LockPersonality = "yes";
  RestrictRealtime = "yes";
  SystemCallArchitectures = "native";
  SystemCallFilter = [
    "@system-service"
    "~@privileged"
  ];
  SystemCallErrorNumber = "EPERM";
  RestrictAddressFamilies = "AF_UNIX AF_INET AF_INET6 AF_NETLINK";
}
