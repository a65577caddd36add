"""Reviews of finished games (``docs/review.md``): a seat's decisions set beside what the
expert bot would have done, computed once in the bot pool's spare time and kept with the
records. The desk and its route are :mod:`.desk`'s; the rows, :mod:`.rows`'."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.routing import BaseRoute

from ...seam import Feature, FeatureContext, FeatureServer, StoreHooks
from .desk import ReviewDesk, review_routes
from .rows import forget_player, forget_stale, prune

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection


class ReviewServer(FeatureServer):
    """The review desk of this process."""

    def __init__(self, context: FeatureContext) -> None:
        super().__init__(context)
        self.desk = ReviewDesk(context.bots, context.store, context.node, sealed=context.rooms.sealed)

    def routes(self) -> list[BaseRoute]:
        return list(review_routes(self.desk))

    async def stop(self) -> None:
        await self.desk.close()


def _prune(c: Connection, _records_before: float) -> None:
    prune(c)  # the reviews whose game's record is gone


FEATURE = Feature(
    name="reviews",
    summary="reviews of finished games against the expert bot",
    store=StoreHooks(forget_player=forget_player, forget_stale=forget_stale, prune=_prune),
    server=ReviewServer,
)

__all__ = ["FEATURE", "ReviewServer"]
