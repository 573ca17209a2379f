"""Sans-IO lifecycles: the rules of a session, a turn and a reply as tables.

Each module is like `vac.protocol.streams`: a state Enum, an event Enum,
one transition table mapping (state, event) to an outcome, and a pure `step`
function. The asyncio shells (daemon/server, runtime)
carry out the outcomes; nothing here does I/O, reads a clock or imports
asyncio.
"""
