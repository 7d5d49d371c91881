"""The inbox's rows kept by column, and a view's rows as positions in those columns.

A hundred thousand rows kept as tuples in a dict cost some 300 bytes each: the tuple, its id
and mark as int objects, the dict's entry. :class:`RowTable` keeps the same rows by column —
ids, times and fingerprints in packed arrays, each row's kind as a number in a table of the
few hundred kinds, its requester and subject as references to strings shared or its own —
and finds a row by its id through an open-addressing index of packed slot numbers: about 70
bytes a row besides its subject. It is a mapping of id to :class:`~.rows.InboxRow` like the
dict it replaces: a row is made when it is read (a few hundred nanoseconds), so what holds a
row holds a small tuple of its own, and a view holds none (:class:`RowView`).

A row's place in the columns (its slot) never changes and is never given to another
conversation: a row written again is written over in its slot (its stamp counts the
writes), a row taken out is only marked gone, its fields kept, so a view made before still
reads it until the view is made again. The views of the inbox are made from the columns
without making a row each (:meth:`RowTable.slots`, :meth:`RowTable.ordered`).

The first frame reads a few hundred rows: until :data:`PACK_AT` rows the table keeps them
as written, by slot, with a dict of their slots (a few dict and list operations a row, no
hashing of its own in Python), and packs them by column once there are more. It is a plain
class, not a ``MutableMapping`` (an abstract class is slow to make, at start-up): it has the
dict's ways that the console uses.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableSequence, Sequence
from itertools import compress
from operator import and_
from typing import cast, overload

from .rows import DIGEST_BITS, InboxRow, Kind

__all__ = ["PACK_AT", "RowTable", "RowView"]

#: rows from which the columns are packed arrays (fewer: plain lists)
PACK_AT = 1024

#: Fibonacci hashing: ids that follow each other land far apart in the index
_SPREAD = 0x9E3779B97F4A7C15
_BITS64 = (1 << 64) - 1
#: a slot's stamp counts its writes, within 32 bits
_STAMP_MASK = 0xFFFFFFFF

_new_row = tuple.__new__

#: a column of numbers: a list while the table is small, then an array
Column = MutableSequence[int]


def _packed(typecode: str, values: Iterable[int]) -> Column:
    """``values`` as an array of ``typecode``."""
    return array(typecode, values)


class RowTable:
    """Conversation rows by id, kept by column (see the module's description). Reads and
    writes as a ``dict[int, InboxRow]`` does, in the order the rows first came; a row read
    is equal to the one written (once packed, made when read: not the same object).

    Below :data:`PACK_AT` rows (the first frame's), the rows are kept as written, by slot,
    with a dict of their slots (each write a few dict and list operations); past it, by
    column, with the index of packed slot numbers."""

    def __init__(self, rows: Iterable[InboxRow] = ()) -> None:
        #: while small: the rows as written, by slot, and each id's slot (None once packed)
        self._made: list[InboxRow] | None = []
        self._where: dict[int, int] | None = {}
        #: each slot's id and kind (its place in ``_kind_list``), both while small too
        self._ids: Column = []
        self._kinds: Column = []
        self._kind_list: list[Kind] = []
        self._kind_at: dict[Kind, int] = {}
        #: once packed: requesters (shared strings), subjects, times, fingerprints
        self._requesters: list[str] = []
        self._subjects: list[str | None] = []
        self._micros: Column = []
        self._digests: Column = []
        #: each slot's count of writes (what a view's row was made of, as a number)
        self._stamps: Column = []
        #: 1: the slot's row is in the table; 0: it was taken out (its fields kept)
        self._alive = bytearray()
        self._live = 0
        #: once packed, open addressing: slot + 1 at the place an id hashes to or after it,
        #: 0 empty; a power of two of places, at most half full
        self._index: Column = []
        self._shift = 64
        for row in rows:
            self[row.id] = row

    @property
    def packed(self) -> bool:
        """Whether the rows are kept by column (past :data:`PACK_AT` rows)."""
        return self._made is None

    # ------------------------------------------------------------------ slots

    def _slot(self, conversation_id: object) -> int:
        """The slot of a conversation's row, gone or not (-1: never held)."""
        where = self._where
        if where is not None:
            return where.get(cast(int, conversation_id), -1)
        if type(conversation_id) is not int:
            if not isinstance(conversation_id, int):
                return -1
            conversation_id = int(conversation_id)
        index, ids = self._index, self._ids
        mask = len(index) - 1
        at = ((conversation_id * _SPREAD) & _BITS64) >> self._shift
        while True:
            found = index[at]
            if not found:
                return -1
            if ids[found - 1] == conversation_id:
                return found - 1
            at = (at + 1) & mask

    def _place(self, conversation_id: int, slot: int) -> None:
        """Enter a new slot in the packed index (grown first when it would be more than
        half full)."""
        index = self._index
        if (len(self._ids) + 1) * 2 > len(index):
            self._grow()
            index = self._index
        mask = len(index) - 1
        at = ((conversation_id * _SPREAD) & _BITS64) >> self._shift
        while index[at]:
            at = (at + 1) & mask
        index[at] = slot + 1

    def _grow(self) -> None:
        """The packed index large enough for twice the rows, every slot entered again."""
        bits = max(64 - self._shift + 1, (2 * len(self._ids) + 2).bit_length())
        index = _packed("I", bytes(4 << bits))
        shift, mask = 64 - bits, (1 << bits) - 1
        for slot, conversation_id in enumerate(self._ids):
            at = ((conversation_id * _SPREAD) & _BITS64) >> shift
            while index[at]:
                at = (at + 1) & mask
            index[at] = slot + 1
        self._index, self._shift = index, shift

    def _row(self, slot: int) -> InboxRow:
        """The row kept in a slot (made now, once packed)."""
        made = self._made
        if made is not None:
            return made[slot]
        return _new_row(InboxRow, (
            self._ids[slot], self._kind_list[self._kinds[slot]], self._requesters[slot],
            self._subjects[slot], (self._micros[slot] << DIGEST_BITS) | self._digests[slot]))

    def _live_slots(self) -> Iterator[int]:
        return compress(range(len(self._ids)), self._alive)

    def _pack(self) -> None:
        """Keep the rows by column from now on (the table has grown past the first
        frame's)."""
        made = self._made
        if made is None:
            return
        marks = [row[4] for row in made]
        self._requesters = [row[2] for row in made]
        self._subjects = [row[3] for row in made]
        self._micros = _packed("q", (mark >> DIGEST_BITS for mark in marks))
        self._digests = _packed("Q", (mark & _BITS64 for mark in marks))
        self._ids, self._kinds = _packed("q", self._ids), _packed("I", self._kinds)
        self._stamps = _packed("I", self._stamps)
        self._made = self._where = None
        self._grow()

    def _micros_column(self) -> Sequence[int]:
        """Each slot's time (:attr:`InboxRow.micros`)."""
        made = self._made
        if made is not None:
            return [row[4] >> DIGEST_BITS for row in made]
        return self._micros

    def _slots_column(self, slots: Iterable[int]) -> Column:
        """Slots as a view keeps them: packed once the table is."""
        return list(slots) if self._made is not None else _packed("I", slots)

    # ------------------------------------------------------------------ the mapping

    def __getitem__(self, conversation_id: int) -> InboxRow:
        slot = self._slot(conversation_id)
        if slot < 0 or not self._alive[slot]:
            raise KeyError(conversation_id)
        return self._row(slot)

    def get(self, conversation_id: int) -> InboxRow | None:
        """The row of a conversation (None: none held)."""
        slot = self._slot(conversation_id)
        if slot < 0 or not self._alive[slot]:
            return None
        return self._row(slot)

    def __contains__(self, conversation_id: object) -> bool:
        slot = self._slot(conversation_id)
        return slot >= 0 and bool(self._alive[slot])

    def __setitem__(self, conversation_id: int, row: InboxRow) -> None:
        if row[0] != conversation_id:
            raise ValueError(f"row {row[0]} kept as conversation {conversation_id}")
        self._write(row, only_new=False)

    def add(self, row: InboxRow) -> bool:
        """Keep ``row`` unless a row of its conversation is kept already (one lookup where
        ``in`` and then ``[]=`` take two); whether it was kept."""
        return self._write(row, only_new=True)

    def _write(self, row: InboxRow, *, only_new: bool) -> bool:
        conversation_id: int = row[0]
        slot = self._slot(conversation_id)
        if slot >= 0 and only_new and self._alive[slot]:
            return False
        kind: Kind = row[1]
        kind_at = self._kind_at.get(kind)
        if kind_at is None:
            kind_at = self._kind_at[kind] = len(self._kind_list)
            self._kind_list.append(kind)
        if slot < 0 and len(self._ids) == PACK_AT:
            self._pack()
        made = self._made
        if slot < 0:
            slot = len(self._ids)
            if made is not None:
                made.append(row)
                self._where[conversation_id] = slot  # type: ignore[index]
            else:
                self._place(conversation_id, slot)
                mark: int = row[4]
                self._requesters.append(row[2])
                self._subjects.append(row[3])
                self._micros.append(mark >> DIGEST_BITS)
                self._digests.append(mark & _BITS64)
            self._ids.append(conversation_id)
            self._kinds.append(kind_at)
            self._stamps.append(0)
            self._alive.append(1)
            self._live += 1
            return True
        if made is not None:
            made[slot] = row
        else:
            mark = row[4]
            self._requesters[slot] = row[2]
            self._subjects[slot] = row[3]
            self._micros[slot] = mark >> DIGEST_BITS
            self._digests[slot] = mark & _BITS64
        self._kinds[slot] = kind_at
        self._stamps[slot] = (self._stamps[slot] + 1) & _STAMP_MASK
        if not self._alive[slot]:
            self._alive[slot] = 1
            self._live += 1
        return True

    def __delitem__(self, conversation_id: int) -> None:
        slot = self._slot(conversation_id)
        if slot < 0 or not self._alive[slot]:
            raise KeyError(conversation_id)
        self._alive[slot] = 0
        self._live -= 1

    def pop(self, conversation_id: int, default: None = None) -> InboxRow | None:
        """Take a conversation's row out; the row (None: none was kept)."""
        slot = self._slot(conversation_id)
        if slot < 0 or not self._alive[slot]:
            return None
        self._alive[slot] = 0
        self._live -= 1
        return self._row(slot)

    def __iter__(self) -> Iterator[int]:
        if self._live == len(self._ids):
            return iter(self._ids)
        return compress(self._ids, self._alive)

    def __len__(self) -> int:
        return self._live

    def keys(self) -> Iterator[int]:
        """The ids, in the order their rows first came."""
        return iter(self)

    def values(self) -> Iterator[InboxRow]:
        """The rows, made one by one as they are read (no lookup by id each)."""
        return map(self._row, self._live_slots())

    def items(self) -> Iterator[tuple[int, InboxRow]]:
        """(id, row) pairs, made one by one as they are read."""
        for row in self.values():
            yield row[0], row

    def __repr__(self) -> str:
        return f"RowTable({len(self)} rows)"

    # ------------------------------------------------------------------ views

    def slots(self, kinds: Callable[[Kind], bool] | None = None, *,
              since: int | None = None) -> list[int]:
        """The slots of the rows held (in the order they first came) whose kind passes
        ``kinds`` (each of the few kinds tested once, not each row) and, with ``since``,
        whose time (:attr:`InboxRow.micros`) is not before it."""
        count = len(self._ids)
        if kinds is None:
            chosen = list(compress(range(count), self._alive))
        else:
            wanted = bytes(1 if kinds(kind) else 0 for kind in self._kind_list)
            chosen = list(compress(range(count), map(
                and_, map(wanted.__getitem__, self._kinds), self._alive)))
        if since is not None:
            micros = self._micros_column()
            chosen = [slot for slot in chosen if micros[slot] >= since]
        return chosen

    def slots_of(self, conversation_ids: Iterable[int]) -> list[int]:
        """The slots of these conversations' rows (those held, in the order given)."""
        alive = self._alive
        return [slot for cid in conversation_ids
                if (slot := self._slot(cid)) >= 0 and alive[slot]]

    def kind_counts(self) -> dict[Kind, int]:
        """How many rows held there are of each kind (one pass in C, no row made)."""
        kinds = self._kind_list
        counted = Counter(compress(self._kinds, self._alive))
        return {kinds[at]: count for at, count in counted.items()}

    def ordered(self, slots: list[int], recent: Mapping[int, int] | None = None) -> RowView:
        """A view of these slots' rows, the latest first (their :attr:`InboxRow.micros`, or
        ``recent``'s moment for a conversation in it — activity seen since), those alike in
        the order given."""
        key = self._micros_column()
        if recent:
            key = list(key) if self._made is not None else _packed("q", key)
            for conversation_id, moment in recent.items():
                slot = self._slot(conversation_id)
                if slot >= 0 and moment:
                    key[slot] = moment
        slots.sort(key=key.__getitem__, reverse=True)
        return RowView(self, self._slots_column(slots))

    def view(self, slots: Iterable[int]) -> RowView:
        """A view of these slots' rows, in this order."""
        return RowView(self, self._slots_column(slots))


class RowView(Sequence[InboxRow]):
    """A list of a table's rows (a view, a list's rows) as their slots: 4 bytes a row where
    a list of rows is 8 and the rows themselves. A row is made when read, as its slot holds
    it now (a row written again reads as written; a row taken out still reads as it was).
    Rows can be taken out and put in (:meth:`insert`), as a list's."""

    __slots__ = ("_slots", "_table")

    def __init__(self, table: RowTable, slots: Column) -> None:
        self._table = table
        self._slots = slots

    @property
    def table(self) -> RowTable:
        """The table whose rows these are."""
        return self._table

    def __len__(self) -> int:
        return len(self._slots)

    @overload
    def __getitem__(self, at: int) -> InboxRow: ...

    @overload
    def __getitem__(self, at: slice) -> list[InboxRow]: ...

    def __getitem__(self, at: int | slice) -> InboxRow | list[InboxRow]:
        if isinstance(at, slice):
            return list(map(self._table._row, self._slots[at]))
        return self._table._row(self._slots[at])

    def __iter__(self) -> Iterator[InboxRow]:
        return map(self._table._row, self._slots)

    def __delitem__(self, at: int) -> None:
        del self._slots[at]

    def insert(self, at: int, row: InboxRow) -> None:
        """Put a row of the table (by its id) at ``at``."""
        slot = self._table._slot(row.id)
        if slot < 0:
            raise KeyError(row.id)
        self._slots.insert(at, slot)

    def copy(self) -> RowView:
        """Another view of the same rows (changed apart from this one)."""
        return RowView(self._table, self._slots[:])

    def id_at(self, at: int) -> int:
        """The id of the row at ``at`` (no row made)."""
        return self._table._ids[self._slots[at]]

    def ids(self) -> list[int]:
        """The rows' ids, in order (no row made)."""
        return list(map(self._table._ids.__getitem__, self._slots))

    def token_at(self, at: int) -> int:
        """What the row at ``at`` is made of now, as a number: the same number again means
        the same conversation, not written since."""
        slot = self._slots[at]
        return (slot << 32) | self._table._stamps[slot]

    def index_of(self, conversation_id: int) -> int:
        """Where a conversation's row is (-1: not here); a search of the packed slots, not a
        row made each."""
        slot = self._table._slot(conversation_id)
        if slot < 0:
            return -1
        return _find(self._slots, slot)


def _find(packed: Column, value: int) -> int:
    """The first place of ``value`` in a column (-1: none): an array's by a search of its
    bytes (no int made for each item)."""
    if not isinstance(packed, array):
        try:
            return packed.index(value)
        except ValueError:
            return -1
    data = packed.tobytes()
    needle = array(packed.typecode, (value,)).tobytes()
    size = packed.itemsize
    start = data.find(needle)
    while start >= 0 and start % size:
        start = data.find(needle, start + 1)
    return start // size if start >= 0 else -1
