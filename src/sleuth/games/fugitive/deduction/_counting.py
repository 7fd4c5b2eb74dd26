"""The exact belief's dynamic programme, compiled (Numba when installed, plain Python otherwise).

:func:`count_worlds` runs the programme of :class:`~sleuth.games.fugitive.belief.ExactBelief`
(the same steps and weights, see that module; its states drop what no later step reads, so it
may need fewer than the plain programme) forward over the positions, then
backward, and returns every count the belief reports: the weighted total, the counts per
position and hideout value, the sprint totals, and the counts by which ``extra`` numbers are
face-down hideouts.

Counts are exact integers too large for a machine word, so the kernel computes them modulo
several primes below 2**31 (a product of two residues fits an int64) and the caller recombines
them (:class:`Recombination`, the Chinese remainder theorem).  A float64 copy of every count runs
alongside: it decides which counts are zero (exactly, as sums and products of positive terms
are never rounded to zero) and bounds their size, so the caller can tell whether the primes
were enough (the caller picks how many from a first, floating-point run).

This module imports no rule constant from Sleuth, as Numba caches kernels by their file
(:mod:`sleuth.core.compiled`); the caller passes the cards' piles and types as arrays.

Packed states (three int64 words):

* ``a``: the last hideout (6 bits; 0 after the last position, where nothing reads it), then
  3 bits per sprint type for the sprint cards used (bit 6), then 3 bits per type for the
  face-down hideouts (bit 30);
* ``b``: 4 bits per pile 1-3 for the route cards taken from it, then 4 bits per missed
  multi-number guess for how many of its numbers the route has so far (bit 12; 0 once every
  hideout the guess was about is placed);
* ``c``: the bitset of ``extra`` numbers that are face-down hideouts (bit j for the j-th
  extra number, up to :data:`MAX_EXTRA` of them: any set of hideout values), and for a state
  whose stack is chosen, the reach from bit :data:`REACH_SHIFT`.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from sleuth.core.compiled import kernel, kernel_for

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Result = tuple[int, float, Ints, Floats, Ints]
"""What :func:`count_worlds` returns (see there): few arrays, as returning each costs about a
microsecond."""

TYPES = 8
TOP = 42
"""The last card: the highest hideout value and the cap of a reach."""
MAX_CLAUSES = 12
"""Missed multi-number guesses a packed state can track (4 bits each)."""
MAX_CLAUSE_SIZE = 15
MAX_EXTRA = 41
"""Numbers whose membership a packed state can track: every possible hideout value (1-41), so
any pool packs and the pass over every candidate value runs compiled."""
REACH_SHIFT = 48
"""The bit of a mid's ``c`` word where its reach starts (above the extra numbers' bits)."""
EXTRA_BITS = (1 << REACH_SHIFT) - 1
"""The extra numbers' bits of a ``c`` word."""
TOO_MANY_STATES = -1
""":func:`count_worlds`'s state count when it stopped at ``max_states``."""
START_KEYS = 2048
START_EDGES = 8192
"""The initial rows of the state and mid keys, and of the edges (grown when short)."""

_I, _B, _F, _V, _M = "int64", "boolean", "float64[::1]", "int64[::1]", "int64[:, ::1]"
"""Numba's names of the argument types below: an int, a bool, float and int vectors, an int
matrix (all C-contiguous)."""
STACK_STEP = ", ".join(
    [
        *(_I, _I, _I, _M, _M, _V, _I, _I, _M, _F, _I, _M, _M, _V, _I, _M, _F, _I),  # to n_choices
        *(_M, _V, _M, _V, _V, _B, _V, _M, _V, _V, _V, _V, _V, _F),  # draws to base
    ]
).join("()")
HIDEOUT_STEP = ", ".join(
    [
        *(_I, _I, _I, _M, _M, _V, _I, _I, _M, _F, _I, _B, _M, _M),  # to draws
        *(_V, _V, _V, _V, _V, _V, _V, _V, _B, _V, _I),  # free to last
    ]
).join("()")
"""The argument types of :func:`_stack_step` and :func:`_hideout_step`, compiled for these alone
(:func:`~sleuth.core.compiled.kernel_for`): :func:`count_worlds` calls them with constants
first, which would compile each twice."""

# The columns of :func:`count_worlds`'s slot table (one row per position).
DRAWS = 0
"""Three columns: the Fugitive's draws from piles 1, 2 and 3 when the hideout was placed."""
VALUE = 3
STACK_KNOWN = 4
STACK_PILES = 5
"""Three columns: a known stack's cards from piles 1, 2 and 3."""
STACK_FOOTPRINTS = 8
COMP_START = 9
COMP_END = 10
SLOT_COLUMNS = 11
# The columns of its missed guesses.
MISS_NUMBERS = 0
MISS_SIZE = 1
MISS_PLACED = 2


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n below 4,759,123,141 (bases 2, 7, 61)."""
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for base in (2, 7, 61):
        x = pow(base, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@cache
def primes(count: int) -> Ints:
    """The ``count`` largest primes below 2**31."""
    found: list[int] = []
    n = 2**31 - 1
    while len(found) < count:
        if _is_prime(n):
            found.append(n)
        n -= 2
    return np.array(found, dtype=np.int64)


class Recombination:
    """The Chinese remainder theorem for fixed moduli: an instance maps residues to the integer
    in [0, prod(moduli)) that has them."""

    def __init__(self, moduli: Ints) -> None:
        self.modulus = 1
        for p in moduli.tolist():
            self.modulus *= p
        self.basis = [self.modulus // p * pow(self.modulus // p, -1, p) for p in moduli.tolist()]

    def __call__(self, residues: Ints) -> int:
        total = sum(r * b for r, b in zip(residues.tolist(), self.basis, strict=True))
        return int(total % self.modulus)


@kernel
def _falling(n: int, k: int, p: int) -> int:
    """n (n-1) ... (n-k+1) modulo p; 0 when k > n."""
    if k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) % p
    return out


@kernel
def _falling_float(n: int, k: int) -> float:
    if k > n:
        return 0.0
    out = 1.0
    for i in range(k):
        out *= n - i
    return out


HASH = 0x5BD1E995
"""The odd multiplier of the layer's hash table (an int64 for Numba, whose products wrap)."""


@kernel_for("(int64, int64, int64, int64)")
def _home(a: int, b: int, c: int, mask: int) -> int:
    """The first slot to probe for key (a, b, c) in a hash table of ``mask + 1`` slots."""
    h = a ^ (a >> 27)  # fold the high bits down: a product's low bits see only low bits
    h = (h * HASH + b) ^ (h >> 31)
    h = h * HASH + c
    h = (h ^ (h >> 29)) * HASH
    return int((h ^ (h >> 32)) & mask)


@kernel
def _slot(table: Ints, keys: Ints, a: int, b: int, c: int) -> int:
    """Where key (a, b, c) is, or would go, in the open-addressing ``table`` over the rows of
    ``keys`` (entries are 1 + the key's row, 0 when free; linear probing).  The caller keeps a
    free row and the table at most half full (:func:`_table_for`, :func:`_grown`).

    The two steps inline this search and the insert of a new key for every edge: a call with
    array arguments updates each one's reference count twice (atomically), which took 40% of
    the programme's time."""
    mask = table.shape[0] - 1
    slot = _home(a, b, c, mask)
    while table[slot]:
        j = table[slot] - 1
        if keys[j, 0] == a and keys[j, 1] == b and keys[j, 2] == c:
            return slot
        slot = (slot + 1) & mask
    return slot


@kernel_for("(int64[:, ::1], int64, int64, int64)")
def _table_for(keys: Ints, first: int, count: int, more: int) -> Ints:
    """A hash table for rows ``first:count`` of ``keys`` with room for ``more`` keys: at most
    half full then."""
    size = 64
    while size < 2 * (count - first + more):
        size *= 2
    table = np.zeros(size, np.int64)
    for j in range(first, count):
        table[_slot(table, keys, keys[j, 0], keys[j, 1], keys[j, 2])] = j + 1
    return table


@kernel
def _grown(rows: Ints, needed: int) -> Ints:
    """``rows`` copied into an array of at least ``needed`` rows (and twice as many)."""
    bigger = np.empty((max(needed, 2 * rows.shape[0]), rows.shape[1]), np.int64)
    bigger[: rows.shape[0]] = rows
    return bigger


@kernel
def _grown_floats(values: Floats, needed: int) -> Floats:
    """``values`` copied into an array of at least ``needed`` (and twice as many)."""
    bigger = np.empty(max(needed, 2 * values.shape[0]))
    bigger[: values.shape[0]] = values
    return bigger


@kernel
def _stopped(primes_used: int) -> Result:
    """:func:`count_worlds`'s result when it needs more than ``max_states`` states."""
    return (
        TOO_MANY_STATES,
        0.0,
        np.zeros(0, np.int64),
        np.zeros(0),
        np.zeros((0, primes_used), np.int64),
    )


FIELD = 5
"""Bits per sprint type in a packed room or composition word (4 for the count, 1 guard)."""
GUARDS = sum(16 << (FIELD * t) for t in range(TYPES))
"""The guard bit of every field: ``(room | GUARDS) - composition`` keeps them all exactly when
the composition fits the room type by type (no field borrows from the next)."""
ANY_ROOM = (1 << (FIELD * TYPES)) - 1
"""A packed room that every composition fits (when sprint cards are not told apart)."""


@kernel
def _compositions(
    comps: Ints, comp_mult: Ints, free: Ints, identities: bool
) -> tuple[Ints, Ints, Ints, Floats]:
    """Per stack composition of one position: its cards per type packed in ``FIELD``-bit
    fields, its change to a state's ``a`` (sprint cards used) and ``b`` (route cards per pile),
    and its weight before the draws (orderings, and without identities the choice of cards)."""
    count = comps.shape[0]
    packed = np.zeros(count, np.int64)
    delta_a = np.zeros(count, np.int64)
    delta_b = np.zeros(count, np.int64)
    base = np.zeros(count)
    for k in range(count):
        weight = float(comp_mult[k])
        for t in range(TYPES):
            packed[k] |= comps[k, t] << (FIELD * t)
            if identities:
                delta_a[k] += comps[k, t] << (6 + 3 * t)
            else:
                weight *= _falling_float(free[t], comps[k, t])
        delta_b[k] = comps[k, 2] + comps[k, 3] + ((comps[k, 4] + comps[k, 5]) << 4)
        delta_b[k] += (comps[k, 6] + comps[k, 7]) << 8
        base[k] = weight
    return packed, delta_a, delta_b, base


@kernel
def _room_word(a: int, free: Ints) -> int:
    """The cards of each type still free after state word ``a`` (its sprint cards used and
    face-down hideouts), packed like :func:`_compositions`, with every guard bit set.  Never
    negative: a stack takes only cards that are free, and a hideout step makes no state whose
    hideouts and sprint cards of a type outnumber its free cards."""
    word = GUARDS
    for t in range(TYPES):
        word |= (free[t] - ((a >> (6 + 3 * t)) & 7) - ((a >> (30 + 3 * t)) & 7)) << (FIELD * t)
    return word


@kernel_for(STACK_STEP)
def _stack_step(
    i: int,
    state: int,
    stop: int,
    st: Ints,
    md: Ints,
    mids: Ints,
    first_mid: int,
    n_md: int,
    se: Ints,
    se_f: Floats,
    n_se: int,
    groups: Ints,
    group_rows: Ints,
    group_table: Ints,
    n_groups: int,
    choices: Ints,
    choice_f: Floats,
    n_choices: int,
    draws: Ints,
    stack_known: Ints,
    stack_piles: Ints,
    stack_fp: Ints,
    free: Ints,
    identities: bool,
    moduli: Ints,
    comps: Ints,
    comp_mult: Ints,
    comp_fp: Ints,
    packed: Ints,
    delta_a: Ints,
    delta_b: Ints,
    base: Floats,
) -> tuple[int, int, int, int, int]:
    """The stack step of position index ``i`` for the states ``state:stop``: their mids (keys
    in ``md`` from row ``n_md``, the layer's from row ``first_mid`` in the hash table ``mids``)
    and stack edges (``se``, ``se_f`` from row ``n_se``).  A stack whose cards are unknown may
    be any composition that the state's room allows (``packed``: its cards per type; the
    changes ``delta_a`` and ``delta_b``; ``base`` its weight before the draws), computed once
    per group of states with the same room and route cards taken (``groups``; ``group_rows``
    are their rows of ``choices``: the change to ``a`` and ``b``, footprints, then residues).

    Returns (the next state, n_md, n_se, n_groups, n_choices): the next state is below
    ``stop`` when an array is too small for it (the caller grows them and calls again from
    there).  The arrays are never replaced here, which keeps reference counting out of the
    loop."""
    primes_used = moduli.shape[0]
    for s in range(state, stop):
        a, b, c = st[s, 0], st[s, 1], st[s, 2]
        last = a & 63
        taken1, taken2, taken3 = b & 15, (b >> 4) & 15, (b >> 8) & 15
        first_choice, end_choice = 0, 1
        if not stack_known[i]:  # the choices depend on (room, taken) only
            room = _room_word(a, free) if identities else ANY_ROOM
            if (
                n_groups == groups.shape[0]
                or 2 * (n_groups + 1) > group_table.shape[0]
                or n_choices + comps.shape[0] > choices.shape[0]
            ):
                return s, n_md, n_se, n_groups, n_choices
            mask = group_table.shape[0] - 1  # insert the key (see _slot), inlined
            slot = _home(room, b & 0xFFF, 0, mask)
            while group_table[slot]:
                j = group_table[slot] - 1
                if groups[j, 0] == room and groups[j, 1] == b & 0xFFF:
                    break
                slot = (slot + 1) & mask
            if not group_table[slot]:
                groups[n_groups] = (room, b & 0xFFF, 0)
                group_table[slot] = n_groups + 1
            g = group_table[slot] - 1
            if g == n_groups:
                n_groups += 1
                group_rows[g, 0] = n_choices
                for k in range(comps.shape[0]):  # the group's choices (in the loop: no call)
                    if (room - packed[k]) & GUARDS != GUARDS:
                        continue  # more cards of some type than are free
                    pile1 = delta_b[k] & 15
                    pile2 = (delta_b[k] >> 4) & 15
                    pile3 = delta_b[k] >> 8
                    weight = base[k] * _falling_float(draws[i, 0] - taken1, pile1)
                    weight *= _falling_float(draws[i, 1] - taken2, pile2)
                    weight *= _falling_float(draws[i, 2] - taken3, pile3)
                    if weight == 0.0:
                        continue
                    for r in range(primes_used):
                        p = moduli[r]
                        w = comp_mult[k] % p * _falling(draws[i, 0] - taken1, pile1, p) % p
                        w = w * _falling(draws[i, 1] - taken2, pile2, p) % p
                        w = w * _falling(draws[i, 2] - taken3, pile3, p) % p
                        if not identities:
                            for t in range(TYPES):
                                w = w * _falling(free[t], comps[k, t], p) % p
                        choices[n_choices, 3 + r] = w
                    choices[n_choices, 0] = delta_a[k]
                    choices[n_choices, 1] = delta_b[k]
                    choices[n_choices, 2] = comp_fp[k]
                    choice_f[n_choices] = weight
                    n_choices += 1
                group_rows[g, 1] = n_choices
            first_choice, end_choice = group_rows[g, 0], group_rows[g, 1]
        more = end_choice - first_choice
        if (
            n_md + more > md.shape[0]
            or 2 * (n_md - first_mid + more) > mids.shape[0]
            or n_se + more > se.shape[0]
        ):
            return s, n_md, n_se, n_groups, n_choices
        for x in range(first_choice, end_choice):
            if stack_known[i]:  # the stack's cards: only their draw slots to count
                weight = _falling_float(draws[i, 0] - taken1, stack_piles[i, 0])
                weight *= _falling_float(draws[i, 1] - taken2, stack_piles[i, 1])
                weight *= _falling_float(draws[i, 2] - taken3, stack_piles[i, 2])
                if weight == 0.0:
                    continue
                for r in range(primes_used):
                    p = moduli[r]
                    w = _falling(draws[i, 0] - taken1, stack_piles[i, 0], p)
                    w = w * _falling(draws[i, 1] - taken2, stack_piles[i, 1], p) % p
                    w = w * _falling(draws[i, 2] - taken3, stack_piles[i, 2], p) % p
                    se[n_se, 3 + r] = w
                new_a = a
                new_b = b + stack_piles[i, 0] + (stack_piles[i, 1] << 4) + (stack_piles[i, 2] << 8)
                fp = stack_fp[i]
            else:
                weight = choice_f[x]
                for r in range(primes_used):
                    se[n_se, 3 + r] = choices[x, 3 + r]
                new_a, new_b, fp = a + choices[x, 0], b + choices[x, 1], choices[x, 2]
            reach = min(last + 3 + fp, TOP)
            new_c = c | (reach << REACH_SHIFT)
            mask = mids.shape[0] - 1  # insert the key (see _slot), inlined
            slot = _home(new_a, new_b, new_c, mask)
            while mids[slot]:
                j = mids[slot] - 1
                if md[j, 0] == new_a and md[j, 1] == new_b and md[j, 2] == new_c:
                    break
                slot = (slot + 1) & mask
            if not mids[slot]:
                md[n_md] = (new_a, new_b, new_c)
                mids[slot] = n_md + 1
                n_md += 1
            m = mids[slot] - 1
            se[n_se, 0] = s
            se[n_se, 1] = m
            se[n_se, 2] = fp
            se_f[n_se] = weight
            n_se += 1
    return stop, n_md, n_se, n_groups, n_choices


@kernel_for(HIDEOUT_STEP)
def _hideout_step(
    i: int,
    mid: int,
    stop: int,
    md: Ints,
    st: Ints,
    following: Ints,
    first_state: int,
    n_st: int,
    he: Ints,
    he_f: Floats,
    n_he: int,
    face_down: bool,
    allowed: Ints,
    draws: Ints,
    free: Ints,
    slack_weight: Ints,
    clause_mask: Ints,
    clause_len: Ints,
    clause_placed: Ints,
    extra_bit: Ints,
    pile_of: Ints,
    type_of: Ints,
    identities: bool,
    moduli: Ints,
    last_index: int,
) -> tuple[int, int, int]:
    """The hideout step of position index ``i`` for the mids ``mid:stop``: the next layer's
    states (keys in ``st`` from row ``n_st``, the layer's from row ``first_state`` in the hash
    table ``following``) and hideout edges (``he``, ``he_f`` from row ``n_he``).  States keep
    only what a later step reads, so that more of them merge: the progress of a missed guess
    once every hideout it was about is placed, and the last hideout after the last position
    (``last_index``) are dropped.

    Returns (the next mid, n_st, n_he), like :func:`_stack_step`."""
    for m in range(mid, stop):
        a, b, c = md[m, 0], md[m, 1], md[m, 2]
        last = a & 63
        reach = c >> REACH_SHIFT
        extra = c & EXTRA_BITS
        more = reach - last
        if (
            n_st + more > st.shape[0]
            or 2 * (n_st - first_state + more) > following.shape[0]
            or n_he + more > he.shape[0]
        ):
            return m, n_st, n_he
        for h in range(last + 1, reach + 1):
            if not allowed[i, h]:
                continue
            if face_down and identities:
                t = type_of[h]
                if ((a >> (6 + 3 * t)) & 7) + ((a >> (30 + 3 * t)) & 7) >= free[t]:
                    continue  # every free card of its type is already on the route
            pile = pile_of[h]
            room = 1
            if pile > 0:
                room = draws[i, pile - 1] - ((b >> (4 * (pile - 1))) & 15)
            if room <= 0:
                continue
            weight = room * slack_weight[reach - h]
            new_b = b
            if pile > 0:
                new_b += 1 << (4 * (pile - 1))
            broken = False
            for q in range(clause_len.shape[0]):
                shift = 12 + 4 * q
                progress = (new_b >> shift) & 15
                if i < clause_placed[q] and (clause_mask[q] >> h) & 1:
                    progress += 1
                    new_b += 1 << shift
                if clause_placed[q] == i + 1:
                    if progress >= clause_len[q]:
                        broken = True  # every number of a missed guess would be a hideout
                        break
                    new_b &= ~(15 << shift)  # the guess is settled: its progress is moot
            if broken:
                continue
            new_a = a & ~63 if i == last_index else (a & ~63) | h  # no step reads the last one
            new_c = extra
            if face_down:
                if identities:
                    new_a += 1 << (30 + 3 * type_of[h])
                if extra_bit[h] >= 0:
                    new_c |= 1 << extra_bit[h]
            mask = following.shape[0] - 1  # insert the key (see _slot), inlined
            slot = _home(new_a, new_b, new_c, mask)
            while following[slot]:
                j = following[slot] - 1
                if st[j, 0] == new_a and st[j, 1] == new_b and st[j, 2] == new_c:
                    break
                slot = (slot + 1) & mask
            if not following[slot]:
                st[n_st] = (new_a, new_b, new_c)
                following[slot] = n_st + 1
                n_st += 1
            s = following[slot] - 1
            he[n_he, 0] = m
            he[n_he, 1] = s
            he[n_he, 2] = h
            he_f[n_he] = weight
            for r in range(moduli.shape[0]):
                he[n_he, 3 + r] = weight % moduli[r]
            n_he += 1
    return stop, n_st, n_he


@kernel
def _final_factors(free: Ints, final_piles: Ints, identities: bool) -> tuple[Floats, Floats]:
    """The factors of a last-layer state's weight: ``type_factor[t, hidden, used]`` the ways
    to pick ``used`` sprint cards of type t among its free cards that are no face-down
    hideout (1 without identities), and ``pile_factor[p, taken]`` the ways to pick the
    Fugitive's other draws from pile p + 1 after ``taken`` route cards (0 if impossible)."""
    type_factor = np.ones((TYPES, 8, 8))
    if identities:
        for t in range(TYPES):
            for hidden in range(8):
                for used in range(8):
                    type_factor[t, hidden, used] = _falling_float(free[t] - hidden, used)
    pile_factor = np.zeros((3, 16))
    for p in range(3):
        drawn, pool = final_piles[0, p], final_piles[1, p]
        for taken in range(min(drawn, 15) + 1):
            if drawn <= pool:
                pile_factor[p, taken] = _falling_float(pool - taken, drawn - taken)
    return type_factor, pile_factor


@kernel
def _final_residue(a: int, b: int, free: Ints, final_piles: Ints, identities: bool, p: int) -> int:
    """A last-layer state's weight modulo ``p`` (see :func:`_final_factors`); the state is
    known to have a non-zero weight."""
    out = 1
    if identities:
        for t in range(TYPES):
            out = out * _falling(free[t] - ((a >> (30 + 3 * t)) & 7), (a >> (6 + 3 * t)) & 7, p) % p
    for q in range(3):
        taken = (b >> (4 * q)) & 15
        out = out * _falling(final_piles[1, q] - taken, final_piles[0, q] - taken, p) % p
    return out


@kernel
def _allowed_values(known_value: Ints, blocked: int, misses: Ints) -> Ints:
    """``allowed[i, h]``: 1 if the hideout at position index i may be h, ignoring the route: its
    value when known, else every number not in ``blocked`` (a bitset) and not a missed
    single-number guess made after it was placed."""
    n = known_value.shape[0]
    allowed = np.zeros((n, TOP + 1), np.int64)
    for i in range(n):
        if known_value[i] >= 0:
            allowed[i, known_value[i]] = 1
        else:
            for h in range(1, TOP):
                allowed[i, h] = 1 - ((blocked >> h) & 1)
    for j in range(misses.shape[0]):
        if misses[j, MISS_SIZE] == 1:
            h = 0
            while not (misses[j, MISS_NUMBERS] >> h) & 1:
                h += 1
            for i in range(misses[j, MISS_PLACED]):
                if known_value[i] < 0:
                    allowed[i, h] = 0
    return allowed


@kernel
def count_worlds(
    slot_table: Ints,
    misses: Ints,
    blocked: int,
    free: Ints,
    final_piles: Ints,
    slack_weight: Ints,
    extra_bit: Ints,
    comps: Ints,
    comp_mult: Ints,
    comp_fp: Ints,
    pile_of: Ints,
    type_of: Ints,
    identities: bool,
    moduli: Ints,
    max_states: int,
) -> Result:
    """Run the programme; see the module docstring for the state packing.

    Inputs: one row of ``slot_table`` per position index i, with the columns named by the
    constants above: the Fugitive's draws from piles 1-3 when it was placed,
    its value (-1 if face down), whether its stack is known with that stack's cards from piles
    1-3 and footprints, and the rows ``[COMP_START, COMP_END)`` of ``comps`` (cards per type),
    ``comp_mult`` (orderings up to the order within a type) and ``comp_fp`` (footprints) that
    are its stack compositions.  One row of ``misses`` per missed guess (the bitset of its
    numbers, their count, the positions placed then).  Globals: ``blocked`` the bitset of
    numbers no face-down hideout can be, ``free[t]`` unblocked cards per type,
    ``final_piles[:, p]`` = (draws, pool) of pile p + 1, ``slack_weight[s]`` the weight of a
    hideout s footprints short of its reach, ``extra_bit[h]`` (the bit of number h in ``c``,
    or -1).

    Returns (states, total, layout, floats, residues); states is :data:`TOO_MANY_STATES` when
    more than ``max_states`` were needed.  The cells are the (i, h) with a non-zero count, row
    by row and h increasing; there are k of them.  ``layout`` holds the first cell of each row i
    and k (n + 1 entries), each cell's h (k), the footprint bitset of each position (n), then
    the u extra masks that some world has, increasing, after their count (1 + u).  ``floats``
    holds the cells' counts (k), then the counts of those masks (u).  ``residues`` has a row
    per modulus' residues: the total's, the k cells', then the masks'.  The total and every
    float are exact when the total is below 2**52.
    """
    n = slot_table.shape[0]
    draws = slot_table[:, DRAWS : DRAWS + 3].copy()
    known_value = slot_table[:, VALUE].copy()
    stack_known = slot_table[:, STACK_KNOWN].copy()
    stack_piles = slot_table[:, STACK_PILES : STACK_PILES + 3].copy()
    stack_fp = slot_table[:, STACK_FOOTPRINTS].copy()
    comp_start = np.zeros(n + 1, np.int64)
    for i in range(n):
        comp_start[i] = slot_table[i, COMP_START]
        comp_start[i + 1] = slot_table[i, COMP_END]
    allowed = _allowed_values(known_value, blocked, misses)
    clauses = 0
    for j in range(misses.shape[0]):
        clauses += misses[j, MISS_SIZE] > 1
    clause_mask = np.zeros(clauses, np.int64)
    clause_len = np.zeros(clauses, np.int64)
    clause_placed = np.zeros(clauses, np.int64)
    c = 0
    for j in range(misses.shape[0]):
        if misses[j, MISS_SIZE] > 1:
            clause_mask[c] = misses[j, MISS_NUMBERS]
            clause_len[c] = misses[j, MISS_SIZE]
            clause_placed[c] = misses[j, MISS_PLACED]
            c += 1
    primes_used = moduli.shape[0]
    # keys (a, b, c) of the states (all layers, layer i is rows st_start[i]:st_start[i + 1])
    # and of the mids (layer i is rows md_start[i]:md_start[i + 1])
    # (rows are written before they are read, so the arrays start uninitialised, and large
    # enough that most games' positions never grow them)
    st = np.empty((START_KEYS, 3), np.int64)
    st[0] = 0
    n_st = 1  # the start: (0, 0, 0)
    st_start = np.zeros(n + 2, np.int64)
    st_start[1] = 1
    md = np.empty((START_KEYS, 3), np.int64)
    n_md = 0
    md_start = np.zeros(n + 1, np.int64)
    # edges: stack edges (state, mid, footprints) and hideout edges (mid, state, hideout),
    # then the weight's residues per modulus; the float weights alongside
    se = np.empty((START_EDGES, 3 + primes_used), np.int64)
    se_f = np.empty(START_EDGES)
    n_se = 0
    he = np.empty((START_EDGES, 3 + primes_used), np.int64)
    he_f = np.empty(START_EDGES)
    n_he = 0
    se_start = np.zeros(n + 1, np.int64)
    he_start = np.zeros(n + 1, np.int64)
    for i in range(n):
        # --- the stack step -------------------------------------------------------------
        se_start[i] = n_se
        md_start[i] = n_md
        mids = _table_for(md, n_md, n_md, st_start[i + 1] - st_start[i])  # about one each
        k0, k1 = comp_start[i], comp_start[i + 1]
        packed, delta_a, delta_b, base = _compositions(
            comps[k0:k1], comp_mult[k0:k1], free, identities
        )
        groups = np.zeros((64, 3), np.int64)
        group_rows = np.zeros((64, 2), np.int64)
        group_table = _table_for(groups, 0, 0, 0)
        n_groups = 0
        choices = np.zeros((max(64, k1 - k0), 3 + primes_used), np.int64)
        choice_f = np.zeros(choices.shape[0])
        n_choices = 0
        state = st_start[i]
        while True:
            state, n_md, n_se, n_groups, n_choices = _stack_step(
                i, state, st_start[i + 1], st, md, mids, md_start[i], n_md, se, se_f, n_se,
                groups, group_rows, group_table, n_groups, choices, choice_f, n_choices,
                draws, stack_known, stack_piles, stack_fp, free, identities, moduli,
                comps[k0:k1], comp_mult[k0:k1], comp_fp[k0:k1], packed, delta_a, delta_b, base,
            )  # fmt: skip
            if state == st_start[i + 1]:
                break
            if n_st + n_md > max_states:  # already over: the rest of the step cannot help
                return _stopped(primes_used)
            more = k1 - k0 + 1  # room for one state's stacks (and its group's choices)
            if n_md + more > md.shape[0]:
                md = _grown(md, n_md + more)
            if 2 * (n_md - md_start[i] + more) > mids.shape[0]:
                mids = _table_for(md, md_start[i], n_md, n_md - md_start[i] + more)
            if n_se + more > se.shape[0]:
                se, se_f = _grown(se, n_se + more), _grown_floats(se_f, n_se + more)
            if n_groups == groups.shape[0]:
                groups, group_rows = _grown(groups, n_groups + 1), _grown(group_rows, n_groups + 1)
            if 2 * (n_groups + 1) > group_table.shape[0]:
                group_table = _table_for(groups, 0, n_groups, n_groups + 1)
            if n_choices + more > choices.shape[0]:
                choices = _grown(choices, n_choices + more)
                choice_f = _grown_floats(choice_f, n_choices + more)
        if n_st + n_md > max_states:
            return _stopped(primes_used)
        # --- the hideout step -----------------------------------------------------------
        he_start[i] = n_he
        first = n_st
        following = _table_for(st, first, first, n_md - md_start[i])
        mid = md_start[i]
        while True:
            mid, n_st, n_he = _hideout_step(
                i, mid, n_md, md, st, following, first, n_st, he, he_f, n_he,
                known_value[i] < 0, allowed, draws, free, slack_weight, clause_mask,
                clause_len, clause_placed, extra_bit, pile_of, type_of, identities, moduli,
                n - 1,
            )  # fmt: skip
            if mid == n_md:
                break
            if n_st + n_md > max_states:
                return _stopped(primes_used)
            more = TOP + 1  # room for one mid's hideouts
            if n_st + more > st.shape[0]:
                st = _grown(st, n_st + more)
            if 2 * (n_st - first + more) > following.shape[0]:
                following = _table_for(st, first, n_st, n_st - first + more)
            if n_he + more > he.shape[0]:
                he, he_f = _grown(he, n_he + more), _grown_floats(he_f, n_he + more)
        st_start[i + 2] = n_st
        if n_st + n_md > max_states:
            return _stopped(primes_used)
    se_start[n] = n_se
    he_start[n] = n_he
    md_start[n] = n_md
    total_states = n_st
    total_mids = n_md
    # --- backward: completions from every state and mid -----------------------------------
    ahead = np.zeros((total_states, primes_used), np.int64)
    ahead_f = np.zeros(total_states)
    final = np.zeros((total_states, primes_used), np.int64)
    final_f = np.zeros(total_states)
    type_factor, pile_factor = _final_factors(free, final_piles, identities)
    for s in range(st_start[n], st_start[n + 1]):
        a, b = st[s, 0], st[s, 1]
        value = 1.0
        for t in range(TYPES):
            value *= type_factor[t, (a >> (30 + 3 * t)) & 7, (a >> (6 + 3 * t)) & 7]
        for p in range(3):
            value *= pile_factor[p, (b >> (4 * p)) & 15]
        final_f[s] = value
        ahead_f[s] = value
        for r in range(primes_used):
            final[s, r] = 0
            if value != 0.0:
                final[s, r] = _final_residue(a, b, free, final_piles, identities, moduli[r])
            ahead[s, r] = final[s, r]
    mid = np.zeros((total_mids, primes_used), np.int64)
    mid_f = np.zeros(total_mids)
    for i in range(n - 1, -1, -1):
        for e in range(he_start[i], he_start[i + 1]):
            m, s = he[e, 0], he[e, 1]
            if ahead_f[s] == 0.0:
                continue
            mid_f[m] += he_f[e] * ahead_f[s]
            for r in range(primes_used):
                mid[m, r] = (mid[m, r] + he[e, 3 + r] * ahead[s, r]) % moduli[r]
        for e in range(se_start[i], se_start[i + 1]):
            s, m = se[e, 0], se[e, 1]
            if mid_f[m] == 0.0:
                continue
            ahead_f[s] += se_f[e] * mid_f[m]
            for r in range(primes_used):
                ahead[s, r] = (ahead[s, r] + se[e, 3 + r] * mid[m, r]) % moduli[r]
    # --- forward: flows, and the counts per position and value ----------------------------
    flow = np.zeros((total_states, primes_used), np.int64)
    flow_f = np.zeros(total_states)
    flow_f[0] = 1.0
    for r in range(primes_used):
        flow[0, r] = 1
    mflow = np.zeros((total_mids, primes_used), np.int64)
    mflow_f = np.zeros(total_mids)
    counts = np.zeros((n, TOP + 1, primes_used), np.int64)
    counts_f = np.zeros((n, TOP + 1))
    footprints = np.zeros(n, np.int64)
    for i in range(n):
        for e in range(se_start[i], se_start[i + 1]):
            s, m = se[e, 0], se[e, 1]
            if flow_f[s] == 0.0 or mid_f[m] == 0.0:
                continue
            footprints[i] |= 1 << se[e, 2]
            mflow_f[m] += flow_f[s] * se_f[e]
            for r in range(primes_used):
                mflow[m, r] = (mflow[m, r] + flow[s, r] * se[e, 3 + r]) % moduli[r]
        for e in range(he_start[i], he_start[i + 1]):
            m, s = he[e, 0], he[e, 1]
            if mflow_f[m] == 0.0 or ahead_f[s] == 0.0:
                continue
            h = he[e, 2]
            flow_f[s] += mflow_f[m] * he_f[e]
            counts_f[i, h] += mflow_f[m] * he_f[e] * ahead_f[s]
            for r in range(primes_used):
                through = mflow[m, r] * he[e, 3 + r] % moduli[r]
                flow[s, r] = (flow[s, r] + through) % moduli[r]
                counts[i, h, r] = (counts[i, h, r] + through * ahead[s, r]) % moduli[r]
    # --- the result, packed (see the docstring) ------------------------------------------
    cells = 0
    for i in range(n):
        for h in range(TOP + 1):
            cells += counts_f[i, h] != 0.0
    ends = np.zeros(st_start[n + 1] - st_start[n], np.int64)  # the final states with worlds
    kept = 0
    for s in range(st_start[n], st_start[n + 1]):
        if flow_f[s] != 0.0 and final_f[s] != 0.0:
            ends[kept] = s
            kept += 1
    ends = ends[:kept][np.argsort(st[ends[:kept], 2], kind="mergesort")]  # by extra mask
    masks = 0
    for j in range(kept):
        masks += j == 0 or st[ends[j], 2] != st[ends[j - 1], 2]
    layout = np.zeros(2 * n + 2 + cells + masks, np.int64)
    floats = np.zeros(cells + masks)
    out = np.zeros((1 + cells + masks, primes_used), np.int64)
    out[0] = ahead[0]
    cell = 0
    for i in range(n):
        layout[i] = cell
        for h in range(TOP + 1):
            if counts_f[i, h] != 0.0:
                layout[n + 1 + cell] = h
                floats[cell] = counts_f[i, h]
                out[1 + cell] = counts[i, h]
                cell += 1
        layout[n + 1 + cells + i] = footprints[i]
    layout[n] = cells
    layout[2 * n + 1 + cells] = masks
    row = -1
    for j in range(kept):
        s = ends[j]
        if j == 0 or st[s, 2] != st[ends[j - 1], 2]:
            row += 1
            layout[2 * n + 2 + cells + row] = st[s, 2]
        floats[cells + row] += flow_f[s] * final_f[s]
        for r in range(primes_used):
            out[1 + cells + row, r] = (out[1 + cells + row, r] + flow[s, r] * final[s, r]) % moduli[
                r
            ]
    return n_st + n_md, ahead_f[0], layout, floats, out
