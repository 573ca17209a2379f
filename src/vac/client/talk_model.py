"""The logic of `vac talk`, sans-IO: events, keys and microphone frames in, actions out.

The device shell (`talk.py`) owns the sound card, stdin and the socket; this
model decides what to send and show. Time is passed in. Playback goes through
a `PlaybackBuffer` that the model fills and clears; the device drains it.

Turn-taking rules, all from PROTOCOL §4/§5.2:
- Push-to-talk: an empty line (Enter) starts a stream, the next commits it.
- `--vad` (hands-free): the client's own VAD (`capture.HandsFree`) opens a
  `vad` stream at speech onset, starting with the pre-roll; the daemon
  endpoints it (continuation window included) and closes it; the first chunk
  answered `stream_closed` says so, and sending stops. Nothing is sent while
  nobody speaks. No stream opens while a turn is active (it would cancel the reply).
- While a reply plays, the microphone is not streamed (half-duplex, so the
  daemon does not transcribe its own voice); the echo-aware gate
  (`echo.EchoGate`) watches it, and on barge-in playback stops,
  `turn.cancel {played_ms}` is sent and a new stream starts with the pre-roll.
- Before `hello.ok` nothing but the `hello` is sent: typed lines (and the
  end of input) wait for the session, microphone frames only feed the meter
  and the pre-roll; `q` quits at once. The shell gives up on the daemon
  (`--timeout`, or at once when the handshake cannot succeed).
- After `hello.ok`, a `ping` goes out after `heartbeat_ms`/2 without sending
  anything, or without hearing anything; when nothing (no `pong`, no event)
  has come for max(2 × `heartbeat_ms`, `--timeout`) with a ping unanswered,
  the daemon is gone without a `bye` (killed, the network cut): `Silent`
  ends the session.
- Drafts: `y` confirms, `n` rejects, `e FIELD=VALUE` edits and confirms the
  newest pending draft, which is always named (at connect, and after each
  decision as `still pending: …`). A key is a line of its own; "no, tell Kofi
  instead" is text for the daemon, as a spoken "yes"/"no" is (§5.1).
"""

from __future__ import annotations

import itertools
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from vac.client.capture import HandsFree
from vac.client.echo import EchoGate
from vac.client.errors import refuses_hello
from vac.client.talk_audio import PlaybackBuffer, PreRoll, rms_s16
from vac.client.talk_screen import Card
from vac.protocol.messages import (
    OPT_IN_FEATURES,
    AudioInputChunk,
    AudioInputCommit,
    AudioInputDone,
    AudioInputStart,
    AudioOutputChunk,
    AudioOutputPlayed,
    AudioOutputStart,
    Error,
    Hello,
    HelloOk,
    Inbound,
    InputMode,
    Negotiation,
    ObjectiveClarify,
    ObjectiveConfirm,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveReject,
    ObjectiveRejected,
    ObjectiveUpdated,
    OutboundMessage,
    OutputRequest,
    Ping,
    ServerBye,
    TextInput,
    TranscriptFinal,
    TranscriptPartial,
    TurnCancel,
    TurnDone,
)
from vac.protocol.objective import Objective

DRAFT_KEYS: Final = "[y] confirm  [n] reject  [e FIELD=VALUE] edit — or say yes / no"


@dataclass(frozen=True)
class Show:
    text: str
    transient: bool = False  # a live partial: overwrite the line instead of adding one
    detail: bool = False  # what the full-screen card shows already: line mode only


@dataclass(frozen=True)
class Send:
    msg: Inbound
    payload: bytes | None = None


@dataclass(frozen=True)
class Quit:
    reason: str


@dataclass(frozen=True)
class Ended:
    """The daemon ended the session (`bye {reason}`): nothing more will come."""

    reason: str


@dataclass(frozen=True)
class Silent:
    """Nothing came from the daemon for `waited_s` after `hello.ok`, pings unanswered."""

    waited_s: float


@dataclass(frozen=True)
class HelloRefused:
    """The daemon answered the `hello` with an `error`: there is no session."""

    error: Error


@dataclass(frozen=True)
class ShowCard:
    """The pending draft to show as a card (None: no draft pending)."""

    card: Card | None


Action = Show | Send | Quit | ShowCard | Ended | HelloRefused | Silent

NOT_CONNECTED: Final = "not connected yet: what you type is sent once the daemon answers (q quits)"


@dataclass(frozen=True)
class Command:
    """A typed line: `toggle` (Enter), `confirm`, `reject`, `edit`, `text`, `quit`."""

    kind: str
    edits: dict[str, Any] | None = None
    text: str = ""


def parse_command(line: str) -> Command | str:
    """A typed line as a command, or a one-line complaint."""
    stripped = line.strip()
    if not stripped:
        return Command("toggle")
    word, _, rest = stripped.partition(" ")
    # A key is a line of its own: "no, tell Kofi instead" is words for the
    # daemon to understand, never a reject with the rest thrown away.
    match stripped.lower().rstrip(".!"):
        case "y" | "yes":
            return Command("confirm")
        case "n" | "no":
            return Command("reject")
        case "q" | "quit":
            return Command("quit")
    match word.lower():
        case "e" | "edit":
            field_name, sep, value = rest.strip().partition("=")
            if not sep or not field_name.strip():
                return "edit as: e FIELD=VALUE (VALUE may be JSON), e.g. e priority=90"
            return Command("edit", edits={field_name.strip(): _json_or_text(value.strip())})
    return Command("text", text=stripped)


def _json_or_text(value: str) -> Any:
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return value


def _what(obj: Objective) -> str:
    return f"{obj.agent} · {obj.verb} · {obj.target.label}"


def draft_lines(draft: ObjectiveDraft) -> list[str]:
    obj = draft.objective
    return [
        f"draft: {draft.preview.summary}",
        f"  ({obj.agent} · {obj.verb} · {obj.target.label} · priority {obj.priority}"
        f" · id {obj.id} rev {obj.revision})",
        f"  {DRAFT_KEYS}",
    ]


@dataclass
class TalkModel:
    playback: PlaybackBuffer
    vad: bool = False
    rate_hz: int = 16000
    resume: str | None = None
    timeout_s: float = 30.0  # `--timeout`: the least silence after hello.ok that ends it
    # webrtcvad in the device shell; the tests pass a rule of their own.
    is_speech: Callable[[bytes], bool] = field(default=lambda frame: False)
    gate: EchoGate = field(default_factory=EchoGate)
    capture: HandsFree = field(default_factory=HandsFree)
    level_rms: float = 0.0  # the last microphone frame's level, for the meter
    hello_ok: HelloOk | None = None
    drafts: dict[str, Objective] = field(default_factory=dict)  # id → newest revision
    cards: dict[str, Card] = field(default_factory=dict)  # id → its card (summary, flags)
    stream: str | None = None  # the open input stream
    _stream_ended: str | None = None  # the open one, once a chunk got `stream_closed`
    active_turn: str | None = None
    hello_id: str | None = None  # the hello sent, until its answer
    _held: list[str | None] = field(default_factory=list)  # input before hello.ok; None: EOF
    _seq: int = 0
    _reply_turn: str | None = None
    _reply_stream: str | None = None
    _reply_mark_bytes: int = 0
    _dropped_streams: set[str] = field(default_factory=set)
    _pre_roll: PreRoll = field(default_factory=PreRoll)
    _last_sent_s: float = 0.0
    _heard: bool = False  # a message came since the last tick
    _last_heard_s: float | None = None  # the tick that saw the newest message
    _unanswered: bool = False  # a ping went out after it
    _last_ping_s: float = 0.0
    _ids: Iterator[str] = field(
        default_factory=lambda: (f"t{uuid.uuid4().hex[:6]}-{n}" for n in itertools.count())
    )

    # ----------------------------------------------------------------- inputs

    def start(self, now_s: float) -> list[Action]:
        out = OutputRequest(rate=self.rate_hz, speak=True)  # type: ignore[arg-type]
        hello = Hello(
            id=self._id(),
            versions=[1],
            client="vac-talk",
            output=out,
            resume=self.resume,
            features=list(OPT_IN_FEATURES),
        )
        self.hello_id = hello.id
        return [self._send(hello, now_s=now_s)]

    def on_line(self, line: str, now_s: float) -> list[Action]:
        cmd = parse_command(line)
        if self.hello_ok is None:
            # No session yet: anything sent now would be refused
            # (`handshake_required`) and lost. Only `q` acts at once.
            if not isinstance(cmd, str) and cmd.kind == "quit":
                return [Quit("bye")]
            self._held.append(line)
            return [Show(NOT_CONNECTED)] if len(self._held) == 1 else []
        if isinstance(cmd, str):
            return [Show(cmd)]
        match cmd.kind:
            case "toggle":
                if self.vad:
                    return [Show("hands-free mode: just speak (Ctrl-C or q to quit)")]
                if self.stream is None:
                    return self._interrupt(now_s) + self._open_stream("push_to_talk", now_s)
                return self._commit(now_s)
            case "quit":
                return [Quit("bye")]
            case "text":
                return [
                    *self._interrupt(now_s),
                    self._send(TextInput(id=self._id(), text=cmd.text[:2000]), now_s=now_s),
                ]
        draft = self._newest_draft()
        if draft is None:
            return [Show("no draft is pending")]
        if cmd.kind == "reject":
            return [self._send(ObjectiveReject(id=self._id(), objective_id=draft.id), now_s=now_s)]
        confirm = ObjectiveConfirm(
            id=self._id(), objective_id=draft.id, revision=draft.revision, edits=cmd.edits
        )
        return [self._send(confirm, now_s=now_s)]

    def on_eof(self) -> list[Action]:
        """The input ended (stdin closed, the terminal gone): quit, after what came before it."""
        if self.hello_ok is None:
            self._held.append(None)
            return []
        return [Quit("bye")]

    def on_mic_frame(self, pcm: bytes, now_s: float) -> list[Action]:
        rms = self.level_rms = rms_s16(pcm)
        if self.hello_ok is None:  # no session to stream to yet
            self._pre_roll.push(pcm)
            return []
        voiced = self.is_speech(pcm)
        if self.playback.playing:
            # Half-duplex while a reply plays: watch for barge-in, stream nothing.
            self._pre_roll.push(pcm)
            self.capture.forget()  # the reply's echo is not the user
            if not self.gate.update(rms, voiced, self.playback.levels, now_s):
                return []
            mode: InputMode = "vad" if self.vad else "push_to_talk"
            actions = [Show("(barge-in)"), *self._interrupt(now_s), *self._open_stream(mode, now_s)]
            self.capture.streaming = self.vad
            for frame in self._pre_roll.take():
                actions.append(self._chunk(frame, now_s))
            return actions
        self.gate.reset()
        if self.stream is not None:
            if self.stream == self._stream_ended:  # its done is still on the way
                self._pre_roll.push(pcm)
                return []
            return [self._chunk(pcm, now_s)]
        self._pre_roll.push(pcm)
        if not self.vad or self.active_turn is not None:
            # §4: a new stream would cancel a running reply, so open it only when idle.
            self.capture.forget()
            return []
        # The reply's tail still echoing in the room is not an onset either.
        echo_rms = self.gate.echo_now(self.playback.levels, now_s)
        floor = max(self.gate.floor_rms, self.gate.margin * echo_rms)
        frames = self.capture.feed(pcm, voiced and rms > floor)
        if frames is None:
            return []
        self._pre_roll.take()
        return [*self._open_stream("vad", now_s), *(self._chunk(f, now_s) for f in frames)]

    def on_tick(self, now_s: float) -> list[Action]:
        if self._heard and self.hello_ok:
            self._heard, self._last_heard_s, self._unanswered = False, now_s, False
        if self.hello_ok and self._held:  # what was typed before the session, in order
            held, self._held = self._held, []
            actions: list[Action] = []
            for line in held:
                actions += self.on_eof() if line is None else self.on_line(line, now_s)
            return actions
        if self.hello_ok is None or self._last_heard_s is None:
            return []
        half_s = self.hello_ok.heartbeat_ms / 2000
        # §3: the daemon answers a ping with a pong; with one unanswered this
        # long, it is gone without a `bye` (killed, the network cut).
        bound_s = max(4 * half_s, self.timeout_s)
        if self._unanswered and now_s - self._last_heard_s >= bound_s:
            return [Silent(bound_s)]
        # §3: something at least every heartbeat_ms (half of it leaves slack);
        # a ping also when nothing was heard, so silence shows while streaming.
        since_s = now_s - (self._last_ping_s if self._unanswered else self._last_heard_s)
        if now_s - self._last_sent_s > half_s or since_s > half_s:
            self._unanswered, self._last_ping_s = True, now_s
            return [self._send(Ping(id=self._id()), now_s=now_s)]
        return []

    def on_message(self, msg: OutboundMessage, payload: bytes | None) -> list[Action]:
        if self.hello_ok is None and self.hello_id and refuses_hello(msg, self.hello_id):
            return [HelloRefused(msg)]
        self._heard = True  # any message: the daemon is there (a pong, an event)
        turn = getattr(msg, "turn", None)
        if isinstance(turn, str) and not isinstance(msg, (Error, TurnDone)):
            self.active_turn = turn
        match msg:
            case HelloOk():
                self.hello_ok = msg
                self.drafts = {o.id: o for o in msg.pending}
                how = (
                    "hands-free (just speak)" if self.vad else "press Enter to talk, Enter to send"
                )
                lines: list[Action] = [
                    Show(f"connected as {msg.principal}; {how}; type text to send it")
                ]
                for obj in msg.pending:
                    lines.append(Show(f"pending: {_what(obj)} (id {obj.id})"))
                    self.cards[obj.id] = Card(obj, obj.source_text)
                if msg.pending:  # what the keys act on, from the start
                    last = msg.pending[-1]
                    lines.append(Show(f"[y]/[n]/[e] act on the last: {_what(last)}"))
                return [*lines, ShowCard(next(reversed(self.cards.values()), None))]
            case TranscriptPartial(text=text):
                return [Show(f"… {text}", transient=True)]
            case TranscriptFinal(text=text, provisional=True):
                # Heard at a pause the daemon may still continue: show, don't act.
                return [Show(f"… {text}", transient=True)]
            case TranscriptFinal(text=text):
                return [Show(f"you: {text}")]
            case ObjectiveDraft():
                self.drafts[msg.objective.id] = msg.objective
                card = Card(msg.objective, msg.preview.summary, tuple(msg.preview.uncertain))
                self.cards[msg.objective.id] = card
                head, *rest = draft_lines(msg)
                return [Show(head), *(Show(line, detail=True) for line in rest), ShowCard(card)]
            case ObjectiveClarify(question=question):
                return [Show(f"vac asks: {question}")]
            case ObjectiveConfirmed(objective_id=oid) | ObjectiveRejected(objective_id=oid):
                self.drafts.pop(oid, None)
                self.cards.pop(oid, None)
                verb = "confirmed" if isinstance(msg, ObjectiveConfirmed) else "rejected"
                done = f"{verb}: {_what(msg.objective)} (id {oid})"
                following = next(reversed(self.cards.values()), None)
                if following is None:
                    return [Show(done), ShowCard(None)]
                # The keys now act on another draft: say which, in line mode too
                # (a `y` confirmed a draft last shown at connect).
                nxt = following.objective
                return [
                    Show(done),
                    Show(f"still pending: {_what(nxt)} (id {nxt.id}) — {DRAFT_KEYS}"),
                    ShowCard(following),
                ]
            case ObjectiveUpdated(objective=obj, counter_of=str(), by=by) if obj.status == "draft":
                # A counter-offer's draft whose turn had ended (or made in
                # another session): pending here too, for the keys to act on.
                self.drafts[obj.id] = obj
                card = self.cards[obj.id] = Card(obj, f"{obj.agent} proposes: {_what(obj)}")
                return [
                    Show(f"counter-offer by {by}: {_what(obj)} (id {obj.id}) — {DRAFT_KEYS}"),
                    ShowCard(card),
                ]
            case ObjectiveUpdated(objective=obj, by=by, note=note):
                said = f" — {note}" if note else ""
                what = f"{obj.agent} · {obj.verb} {obj.target.label} · {obj.status}"
                return [Show(f"update: {what} (by {by}){said}")]
            case Negotiation(decision=decision, reply=reply):
                return [Show(f"{decision}: {reply}")]
            case AudioOutputStart(turn=reply_turn, stream=reply_stream):
                self._reply_turn, self._reply_stream = reply_turn, reply_stream
                self._reply_mark_bytes = self.playback.pushed_bytes
            case AudioOutputChunk(stream=stream):
                if stream not in self._dropped_streams and payload:
                    self.playback.push(payload)
            case AudioInputDone(stream=stream, reason=reason):
                if stream == self.stream:
                    self.stream = None
                    self.capture.stream_closed()
                if reason != "transcribed":
                    return [Show(f"({reason.replace('_', ' ')})")]
            case TurnDone(turn=done_turn):
                if done_turn == self.active_turn:
                    self.active_turn = None
            case Error(code="stream_closed", stream=str() as closed) if closed[:4] == "mic-":
                # Our stream's endpoint: `audio.input.done` comes only after recognition,
                # so chunks sent meanwhile race it (§4), also a late one. Stop sending.
                self._stream_ended = closed if closed == self.stream else self._stream_ended
            case Error(code=code, message=text):
                return [Show(f"error {code}: {text}")]
            case ServerBye(reason=reason):
                return [Ended(reason)]
            case _:
                pass
        return []

    # -------------------------------------------------------------- internals

    def _id(self) -> str:
        return next(self._ids)

    def _send(self, msg: Inbound, payload: bytes | None = None, *, now_s: float) -> Send:
        self._last_sent_s = now_s
        return Send(msg, payload)

    def _newest_draft(self) -> Objective | None:
        return next(reversed(self.drafts.values()), None)

    def _interrupt(self, now_s: float) -> list[Action]:
        """Stop the reply the user is talking over and tell the daemon what was heard."""
        if not self.playback.playing and self._reply_turn is None:
            return []
        played_ms = self.playback.played_ms_since(self._reply_mark_bytes)
        self.playback.clear()
        turn, self._reply_turn = self._reply_turn, None
        stream, self._reply_stream = self._reply_stream, None
        if turn is None or stream is None:
            return []
        # Chunks already in flight for this reply must not restart playback.
        self._dropped_streams.add(stream)
        if turn == self.active_turn:
            cancel = TurnCancel(id=self._id(), turn=turn, played_ms=played_ms)
            return [self._send(cancel, now_s=now_s)]
        # The turn already ended (its audio was all sent, some still buffered here):
        # tell the daemon what was heard so history keeps only that (§5.2).
        played = AudioOutputPlayed(id=self._id(), stream=stream, played_ms=played_ms)
        return [self._send(played, now_s=now_s)]

    def _open_stream(self, mode: InputMode, now_s: float) -> list[Action]:
        self.stream = f"mic-{self._id()}"
        self._seq = 0
        start = AudioInputStart(
            id=self._id(),
            stream=self.stream,
            encoding="pcm_s16le",
            rate=16000,
            channels=1,
            mode=mode,
        )
        hint = "" if self.vad else " — Enter to send"
        return [Show(f"listening{hint}"), self._send(start, now_s=now_s)]

    def _chunk(self, pcm: bytes, now_s: float) -> Send:
        assert self.stream is not None
        msg = AudioInputChunk(id=self._id(), stream=self.stream, seq=self._seq)
        self._seq += 1
        return self._send(msg, pcm, now_s=now_s)

    def _commit(self, now_s: float) -> list[Action]:
        if self.stream is None:
            return []
        if self._seq == 0:
            return [Show("nothing recorded yet")]
        stream, self.stream = self.stream, None
        commit = AudioInputCommit(id=self._id(), stream=stream, last_seq=self._seq - 1)
        return [Show("sent"), self._send(commit, now_s=now_s)]
