"""JSON objects declared once, as frozen dataclasses: the messages of the protocol
(:mod:`.messages`) and the entries of the room log (:mod:`.entries`).

A shape is a keyword-only frozen dataclass whose class names its ``type`` (the JSON object's
``"type"``) and whose fields are declared with :func:`slot`: what each field means (``doc``),
the longest text it may hold (``limit``), and the JSON key it travels under when that is not
its attribute's name (``from`` is a Python keyword). The field's annotation says which JSON
values it takes (``str``, ``int``, ``bool``, ``str | int``; ``None`` among them only as the
default of a field that may be left out); a field without a default is required.

From that one declaration come the reading of an object (:func:`read`: the fields, their types
and limits, what is missing, with a :class:`ShapeError` naming the problem), its writing
(:meth:`Shape.to_json`: the required fields always, the others when they differ from their
default) and the rows of the protocol's documentation (:func:`field_words`).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, dataclass
from typing import Any, ClassVar, TypeVar

#: The longest text a field holds unless its declaration says otherwise.
TEXT_LIMIT = 400

#: How each JSON type is named in an error ("must be text").
TYPE_WORDS = {str: "text", int: "a whole number", bool: "true or false", float: "a number"}


class ShapeError(ValueError):
    """An object that is not of its declared shape: ``code`` is the protocol's error code
    (``bad_message``, ``unknown_type``), ``message`` says what is wrong in English."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def slot(doc: str, *, default: Any = MISSING, limit: int | None = None, wire: str | None = None) -> Any:
    """Declare a field of a shape: ``doc`` (what it holds, as the protocol's tables say it),
    its ``default`` (a field without one is required), the longest text it may hold (``limit``;
    :data:`TEXT_LIMIT` for text fields by default) and its JSON key when that is not the
    attribute's name (``wire``)."""
    metadata = {"doc": doc, "limit": limit, "wire": wire}
    if default is MISSING:
        return dataclasses.field(metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


@dataclass(frozen=True, slots=True)
class Slot:
    """One declared field, as it is read and written."""

    attr: str  # the attribute's name
    wire: str  # the JSON key
    types: tuple[type, ...]  # the JSON types it takes; empty: any value (what the server writes)
    required: bool
    default: Any
    limit: int | None  # the longest text it may hold
    doc: str

    def check(self, value: object, where: str) -> None:
        """Raise :class:`ShapeError` ``bad_message`` unless ``value`` fits this field."""
        if not self.types:
            return
        flag = self.types == (bool,)
        if isinstance(value, bool) is not flag or not isinstance(value, self.types):
            wanted = "a number" if float in self.types else " or ".join(TYPE_WORDS[t] for t in self.types)
            raise ShapeError("bad_message", f"the field {self.wire!r} of {where} must be {wanted}")
        if isinstance(value, str) and self.limit is not None and len(value) > self.limit:
            raise ShapeError("bad_message", f"the field {self.wire!r} is too long (at most {self.limit} characters)")


_SCALARS = (str, int, bool, float)


def _json_types(hint: Any) -> tuple[type, ...]:
    """The JSON types a field annotated ``hint`` takes (``()``: any value; a ``float`` field
    takes whole numbers too)."""
    if hint is float:
        return (float, int)
    if hint in _SCALARS:
        return (hint,)
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        members = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if all(member in _SCALARS for member in members):
            return tuple(members)
    return ()


class Shape:
    """Base of the declared JSON objects; ``KIND`` is the object's ``type``."""

    __slots__ = ()
    KIND: ClassVar[str]
    #: The class's fields, in declaration order (set by :func:`declare`).
    SLOTS: ClassVar[tuple[Slot, ...]] = ()
    #: (attribute, JSON key, default, required) of each field: what :meth:`to_json` walks.
    _WRITE: ClassVar[tuple[tuple[str, str, Any, bool], ...]] = ()

    def to_json(self) -> dict[str, Any]:
        """The object as JSON: its ``type``, every required field, and the optional fields
        whose value is not their default."""
        out: dict[str, Any] = {"type": self.KIND}
        for attr, wire, default, required in self._WRITE:
            value = getattr(self, attr)
            if required or value != default:
                out[wire] = value
        return out


S = TypeVar("S", bound=type[Shape])


def declare(kind: str, registry: dict[str, Any], namespace: Mapping[str, Any] | None = None) -> Callable[[S], S]:
    """A class decorator (above ``@dataclass``): the shape of ``type`` ``kind``, entered in
    ``registry``; its fields' types are read from their annotations (resolved in
    ``namespace``, by default the class's module)."""

    def register(cls: S) -> S:
        if kind in registry:
            raise ValueError(f"two shapes of type {kind!r}")
        hints = typing.get_type_hints(cls, globalns=dict(namespace) if namespace is not None else None)
        found = []
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]  # a dataclass, as declared
            if f.metadata.get("internal"):
                continue  # the object's own, never read nor written
            field_types = _json_types(hints[f.name])
            limit = f.metadata.get("limit")
            if limit is None and str in field_types:
                limit = TEXT_LIMIT
            found.append(
                Slot(
                    attr=f.name,
                    wire=f.metadata.get("wire") or f.name,
                    types=field_types,
                    required=f.default is MISSING and f.default_factory is MISSING,
                    default=f.default,
                    limit=limit,
                    doc=str(f.metadata.get("doc", "")),
                )
            )
        cls.KIND = kind
        cls.SLOTS = tuple(found)
        cls._WRITE = tuple((s.attr, s.wire, s.default, s.required) for s in found)
        registry[kind] = cls
        return cls

    return register


def read(cls: type[Shape], obj: Mapping[str, Any], *, strict: bool = True) -> Any:
    """An instance of ``cls`` from the JSON object ``obj`` (its ``type`` already matched);
    raise :class:`ShapeError` for a field of the wrong type or too long, a missing required
    field, and (``strict``) a field ``cls`` does not declare."""
    where = f"a {cls.KIND!r} message" if strict else f"a {cls.KIND!r} entry"
    by_wire = _by_wire(cls)
    values: dict[str, Any] = {}
    for name, value in obj.items():
        if name == "type":
            continue
        declared = by_wire.get(name)
        if declared is None:
            if strict:
                raise ShapeError("bad_message", f"{where} has no field {name[:40]!r}")
            continue
        declared.check(value, where)
        values[declared.attr] = value
    missing = [s.wire for s in cls.SLOTS if s.required and s.attr not in values]
    if missing:
        raise ShapeError("bad_message", f"{where} needs {', '.join(repr(m) for m in missing)}")
    return cls(**values)


_WIRES: dict[type[Shape], dict[str, Slot]] = {}


def _by_wire(cls: type[Shape]) -> dict[str, Slot]:
    table = _WIRES.get(cls)
    if table is None:
        table = _WIRES[cls] = {s.wire: s for s in cls.SLOTS}
    return table


def field_words(declared: Iterable[Slot]) -> str:
    """Fields as the protocol's tables list them: the required ones, then ``optional:`` the
    others, each as `` `name` (what it holds) ``."""

    def say(s: Slot) -> str:
        return f"`{s.wire}` ({s.doc})" if s.doc else f"`{s.wire}`"

    listed = list(declared)
    required = [say(s) for s in listed if s.required]
    optional = [say(s) for s in listed if not s.required]
    parts = ", ".join(required)
    if optional:
        parts += ("; " if parts else "") + "optional: " + ", ".join(optional)
    return parts


def summary(cls: type) -> str:
    """The first paragraph of ``cls``'s docstring on one line (a table's "what it does")."""
    text = (cls.__doc__ or "").strip().split("\n\n", 1)[0]
    return " ".join(text.split())


def table(header: tuple[str, ...], rows: Iterable[tuple[str, ...]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


#: The marks around a generated table in a documentation page: ``<!-- table: NAME -->`` before
#: it, :data:`TABLE_END` after it.
TABLE_START = "<!-- table: {name} -->"
TABLE_END = "<!-- end of table -->"


def splice(page: str, tables: dict[str, str]) -> str:
    """``page`` with the text between each table's marks replaced by ``tables[name]``; raise
    ``ValueError`` when a table's marks are missing."""
    for name, text in tables.items():
        start = TABLE_START.format(name=name)
        begin = page.find(start)
        end = page.find(TABLE_END, begin)
        if begin < 0 or end < 0:
            raise ValueError(f"the page has no marks for the table {name!r}")
        page = page[: begin + len(start)] + "\n" + text + "\n" + page[end:]
    return page


__all__ = [
    "TABLE_END",
    "TABLE_START",
    "TEXT_LIMIT",
    "Shape",
    "ShapeError",
    "Slot",
    "declare",
    "field_words",
    "read",
    "slot",
    "splice",
    "summary",
    "table",
]
