"""Reading what a client sends: every number with explicit bounds, every refusal a sentence.

Start at `WholeNumber`. Options, moves and forms arrive as JSON numbers, JSON strings or form
text ("13", "6.5"); the field types here accept exactly the ASCII numbers within their bounds
— not 1e400, Infinity, NaN, "²", Arabic-Indic digits or a 5,000-digit string — and refuse
everything else with a sentence that names the field and quotes at most ~40 characters of the
input (`app.engine.errors.quoted`). Each game declares its options as a pydantic model of
these fields (in its adapter module); the same model documents them in OpenAPI, validates the
JSON API's bodies and reads the view's forms. `read` validates raw input against a model and
`explain` turns a validation failure into the one sentence a person sees.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from annotated_types import GroupedMetadata
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from app.engine.errors import quoted
from app.errors import BadOptions

REFUSED = "bad_value"  # the pydantic error type of a field's own sentence

Model = TypeVar("Model", bound=BaseModel)


def with_sentence(sentence: str, code: str | None = None) -> WrapValidator:
    """A validator that replaces whatever pydantic says about a bad value with `sentence`
    (which may use {value}: the input, quoted and cut short), and gives the refusal the
    API `code` (see error_code)."""

    def validate(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(value)
        except ValidationError:
            raise PydanticCustomError(REFUSED, sentence,
                                      {"value": quoted(value), "code": code or ""}) from None

    return WrapValidator(validate)


def _not_a_bool(value: Any) -> Any:
    """pydantic would read true as 1; a number option is never true or false."""
    if isinstance(value, bool):
        raise ValueError("a truth value is not a number")
    return value


class WholeNumber(GroupedMetadata):
    """`Annotated[int, WholeNumber(2, 25, "board size")]`: an int from `low` to `high`, as a
    JSON integer or ASCII digits in a string."""

    def __init__(self, low: int, high: int, title: str, description: str = "",
                 code: str | None = None) -> None:
        self.low, self.high, self.title, self.code = low, high, title, code
        self.description = description or f"A whole number from {low} to {high}."

    def __iter__(self) -> Iterator[object]:
        yield Field(ge=self.low, le=self.high, title=self.title.capitalize(),
                    description=self.description)
        yield BeforeValidator(_not_a_bool)
        yield with_sentence(f"The {self.title} must be a whole number from {self.low} to "
                            f"{self.high}, not {{value}}.", self.code)


class Multiple(GroupedMetadata):
    """`Annotated[float, Multiple(0.25, 0, 180, "minutes", "…", "a quarter")]`: a finite
    multiple of `step` from `low` to `high`."""

    def __init__(self, step: float, low: float, high: float, title: str,
                 description: str = "", kind: str = "", example: str = "") -> None:
        self.step, self.low, self.high, self.title = step, low, high, title
        self.kind = kind or f"multiple of {step:g}"
        self.example = f", such as {example}" if example else ""
        self.description = description or f"A {self.kind} from {low:g} to {high:g}."

    def __iter__(self) -> Iterator[object]:
        yield Field(ge=self.low, le=self.high, multiple_of=self.step, allow_inf_nan=False,
                    title=self.title.capitalize(), description=self.description)
        yield BeforeValidator(_not_a_bool)
        yield with_sentence(f"The {self.title} must be a {self.kind} from {self.low:g} to "
                            f"{self.high:g}{self.example}, not {{value}}.")


class HalfNumber(Multiple):
    """`Annotated[float, HalfNumber(-150, 150, "komi")]`: a whole or half number (komi)."""

    def __init__(self, low: float, high: float, title: str, description: str = "") -> None:
        super().__init__(0.5, low, high, title, description, "whole or half number", "7.5")


def _truth(value: Any) -> bool:
    """A flag's value: JSON true or false, or the same word as text — what a link's query
    (?closed=true) carries when the page posts it as it stands; never 0, 1, "on" or "yes",
    which pydantic would read as one. Forms turn their checkbox into a bool themselves."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value in ("true", "false"):
        return value == "true"
    raise ValueError("not a truth value")


class Flag(GroupedMetadata):
    """`Annotated[bool, Flag("closed", "…")]`: true or false, never a number (see `_truth`)."""

    def __init__(self, title: str, description: str) -> None:
        self.title, self.description = title, description

    def __iter__(self) -> Iterator[object]:
        yield Field(title=self.title.capitalize(), description=self.description)
        yield BeforeValidator(_truth)
        yield with_sentence(f"The option {self.title} is true or false, not {{value}}.")


class Choice(GroupedMetadata):
    """`Annotated[str, Choice(("local", "computer"), "opponent")]`: one of `choices` (an
    enum in OpenAPI)."""

    def __init__(self, choices: Sequence[str], title: str, description: str = "",
                 code: str | None = None) -> None:
        self.choices, self.title, self.code = tuple(choices), title, code
        self.listed = ", ".join(repr(choice) for choice in self.choices)
        self.description = description or f"One of {self.listed}."

    def _check(self, value: str) -> str:
        if value not in self.choices:
            raise ValueError(value)
        return value

    def __iter__(self) -> Iterator[object]:
        yield Field(title=self.title.capitalize(), description=self.description,
                    json_schema_extra={"enum": list(self.choices)})
        yield AfterValidator(self._check)
        yield with_sentence(f"The {self.title} is one of {self.listed}, not {{value}}.",
                            self.code)


def explain(errors: Sequence[ErrorDetails]) -> str:
    """The first validation problem as a sentence a person can act on."""
    if not errors:
        return "The request could not be read."
    first = errors[0]
    kind = first.get("type")
    where = [str(part) for part in first.get("loc", ()) if part != "body"]
    message = str(first.get("msg", "is not valid")).rstrip(".")
    if kind == REFUSED:
        return message + "."
    if kind == "extra_forbidden":
        return f"There is no option {quoted(where[-1]) if where else ''} here."
    if kind == "union_tag_invalid":
        context = first.get("ctx") or {}
        return (f"There is no game called {quoted(first.get('input'))}; choose one of: "
                f"{str(context.get('expected_tags', '')).replace(chr(39), '')}.")
    if kind == "json_invalid":
        reason = (first.get("ctx") or {}).get("error")
        return f"The request body is not valid JSON{f': {reason}' if reason else ''}."
    if kind == "missing":
        return f"{'.'.join(where) or 'A value'} is required."
    return f"{'.'.join(where)}: {message}." if where else f"{message}."


def error_code(errors: Sequence[ErrorDetails]) -> str:
    """The API's `code` for a validation failure: which part of the request was wrong."""
    if not errors:
        return "malformed_request"
    first = errors[0]
    code = (first.get("ctx") or {}).get("code")
    if first.get("type") == REFUSED and code:
        return str(code)
    if first.get("type") == "union_tag_invalid":
        return "unknown_game"
    where = first.get("loc", ())
    if "options" in where:
        return "bad_options"
    if "move" in where:
        return "malformed_move"
    return "malformed_request"


def read(model: type[Model], raw: Any, what: str = "Options") -> Model:
    """`raw` (a dict from JSON or a form) as `model`, or BadOptions with the sentence."""
    if isinstance(raw, BaseModel):
        raw = raw.model_dump(exclude_unset=True)
    if not isinstance(raw, dict):
        raise BadOptions(f"{what} must be a JSON object, not {quoted(raw)}.")
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        raise BadOptions(explain(error.errors())) from None
