"""Errors raised for user input: each names the file, the place in it, and what to do."""

from __future__ import annotations

from pathlib import Path


class InputError(ValueError):
    """A problem with user-supplied input (annotation, audio, config).

    The message always names the file, the line or segment where one exists,
    and a fix. Stages catch it per recording and write it to the rejected list.
    """

    def __init__(self, path: str | Path, problem: str, *, where: str = "", fix: str = "") -> None:
        self.path = str(path)
        self.where = where
        self.problem = problem
        self.fix = fix
        location = f"{self.path}:{where}" if where else self.path
        message = f"{location}: {problem}"
        if fix:
            message += f" ({fix})"
        super().__init__(message)

    @property
    def location(self) -> str:
        return f"{self.path}:{self.where}" if self.where else self.path


class ConfigError(ValueError):
    """The configuration or the dataset sheet is invalid; the message says which key."""


class ModelUnavailableError(RuntimeError):
    """Model weights are neither cached, nor downloadable, nor at the configured path."""
