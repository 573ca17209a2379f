"""What a thing is kept away from, for `intent.passive`'s "keep <it> away
from <that>": a hazard (the one kept away is at risk: "keep the kids away
from the pond"), a pest (the other is: "keep the goats away from the
garden"), and the words that end the thing. Tables only.
"""

from __future__ import annotations

from typing import Final

from vac.intent import lexicon as lx

HAZARDS: Final = frozenset(
    lx.words("""pond road river fire stove oven pool well street water edge cliff tracks
    traffic lake canal cooker heater knives knife chemicals wires wiring ladder stairs
    balcony chainsaw generator bull bees wasps hornets nest snake snakes rocks machinery
    tractor site fireplace sea mud poison""")
)
PESTS: Final = frozenset(
    lx.words("""fox foxes cat cats dog dogs deer rabbit rabbits rat rats mice mouse slugs snails
    pigeons crows magpies squirrel squirrels goat goats sheep cow cows pig pigs wolf wolves
    badger badgers pests vermin strangers burglars thieves intruders""")
)
THING_ENDS: Final = frozenset(
    lx.words("tonight today tomorrow by before until till while when please")
)
