"""The shape every collaborator of ``TableService`` that works through the service shares."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from service.tables import TableService
    from store import Store


class ServicePart:
    """A part of the service (``svc.reads``, ``svc.play``...) reaching the table core through it."""

    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        """The service whose tables it works on: their records, loading, locks, clocks and composing."""

    @property
    def store(self) -> Store:
        """The service's store, read at each use: one store for all its parts, even a swapped one."""
        return self.svc.store
