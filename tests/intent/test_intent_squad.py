from __future__ import annotations

import pytest

from vac.intent import (
    BanterThrottle,
    ScriptStep,
    SquadMessageInvalid,
    SquadPost,
    SquadSenderUnauthorized,
    compare_realm_parity,
    default_roster,
    parity_scenario,
    route,
)

ROSTER = default_roster()
OTHERS_OF_ABENI = ["Kofi", "Zuri", "Tariq", "Imani"]


def send(message: SquadPost, now_ms: int = 0, throttle: BanterThrottle | None = None):  # type: ignore[no-untyped-def]
    return route(
        message, ROSTER, realm="home", now_ms=now_ms, throttle=throttle or BanterThrottle()
    )


@pytest.mark.parametrize(
    ("kind", "recipients", "time_sensitive", "needs_steward", "duckable"),
    [
        ("status-report", ["steward"], False, False, False),
        ("callout", ["steward", *OTHERS_OF_ABENI], True, False, False),
        ("permission-request", ["steward"], True, True, False),
        ("inter-agent-banter", OTHERS_OF_ABENI, False, False, True),
    ],
)
def test_per_kind_routing(
    kind: str, recipients: list[str], time_sensitive: bool, needs_steward: bool, duckable: bool
) -> None:
    m = send(SquadPost(kind, "Abeni", "  The gate   is fixed. "))  # type: ignore[arg-type]
    assert m.recipients == recipients
    assert (m.time_sensitive, m.needs_steward, m.duckable) == (
        time_sensitive,
        needs_steward,
        duckable,
    )
    assert m.text == "The gate is fixed." and m.realm == "home" and not m.dropped


def test_directed_order_goes_to_the_named_agent_grounded() -> None:
    m = send(SquadPost("directed-order", "steward", "Check the hives.", to="tarik"))
    assert m.recipients == ["Tariq"] and m.sender == "steward"
    callout = send(SquadPost("callout", "Steward", "Everyone inside!"))
    assert callout.recipients == ["Abeni", "Kofi", "Zuri", "Tariq", "Imani"]


def test_a_permission_request_goes_to_the_stewards_and_to_the_agent_it_asks() -> None:
    asked = send(SquadPost("permission-request", "Kofi", "May I borrow the ladder?", to="zuri"))
    assert asked.recipients == ["steward", "Zuri"] and asked.needs_steward
    plain = send(SquadPost("permission-request", "Kofi", "May I?", to="Steward"))
    assert plain.recipients == ["steward"]


@pytest.mark.parametrize(
    "message",
    [
        SquadPost("permission-request", "Kofi", "May I?", to="Kofi"),
        SquadPost("permission-request", "Kofi", "May I?", to="Bob"),
        SquadPost("directed-order", "steward", "Go."),
        SquadPost("directed-order", "steward", "Go.", to="Bob"),
        SquadPost("directed-order", "Abeni", "Go.", to="Abeni"),
        SquadPost("status-report", "Bob", "Done."),
        SquadPost("callout", "Abeni", "   "),
        # Recipients fixed by the kind: a `to` was dropped unseen (a probe).
        SquadPost("inter-agent-banter", "Kofi", "Nice hat.", to="Zuri"),
        SquadPost("callout", "Abeni", "Storm coming", to="Kofi"),
        SquadPost("status-report", "Kofi", "Done.", to="Zuri"),
    ],
)
def test_invalid_messages_are_named_errors(message: SquadPost) -> None:
    with pytest.raises(SquadMessageInvalid) as info:
        send(message)
    assert info.value.code == "invalid_message"


@pytest.mark.parametrize("kind", ["status-report", "permission-request", "inter-agent-banter"])
def test_an_agents_kind_from_the_steward_is_unauthorized_not_malformed(kind: str) -> None:
    with pytest.raises(SquadSenderUnauthorized) as info:
        send(SquadPost(kind, "steward", "Ha."))  # type: ignore[arg-type]
    assert info.value.code == "unauthorized"
    assert str(info.value) == f"kind: a {kind} is sent by an agent, not by a steward"


def test_banter_is_throttled_to_one_per_45_s_but_callouts_never() -> None:
    throttle = BanterThrottle()
    first = send(SquadPost("inter-agent-banter", "Kofi", "Nice."), 0, throttle)
    assert not first.dropped
    second = send(SquadPost("inter-agent-banter", "Zuri", "Ha."), 44_999, throttle)
    assert second.dropped and second.drop_reason == "banter-throttled"
    assert second.recipients == [] and second.retry_after_ms == 1
    callout = send(SquadPost("callout", "Zuri", "Fire!"), 45_000, throttle)
    assert not callout.dropped
    third = send(SquadPost("inter-agent-banter", "Zuri", "Ha."), 45_000, throttle)
    assert not third.dropped


def test_realm_parity_has_no_mismatches() -> None:
    script = parity_scenario(ROSTER)
    assert {s.message.kind for s in script} == {
        "status-report",
        "callout",
        "permission-request",
        "inter-agent-banter",
        "directed-order",
    }
    assert compare_realm_parity(script, ROSTER) == []


def test_parity_script_exercises_the_throttle() -> None:
    from vac.intent.squad import run_script

    routed = run_script(parity_scenario(ROSTER), ROSTER, "incarnated")
    assert [m.dropped for m in routed].count(True) == 1
    assert {m.realm for m in routed} == {"incarnated"}


def test_parity_reports_a_mismatch_when_shapes_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    import msgspec

    from vac.intent import squad

    real_route = squad.route

    def drifting(message: SquadPost, *args: object, **kw: object) -> squad.RoutedMessage:
        routed = real_route(message, *args, **kw)  # type: ignore[arg-type]
        if routed.realm == "incarnated":
            return msgspec.structs.replace(routed, time_sensitive=not routed.time_sensitive)
        return routed

    monkeypatch.setattr(squad, "route", drifting)
    script = [ScriptStep(0, SquadPost("status-report", "Kofi", "ok"))]
    mismatches = compare_realm_parity(script, ROSTER)
    assert len(mismatches) == 1 and mismatches[0].startswith("step 0: home")
