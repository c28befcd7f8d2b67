"""Who paid, for the public figures: registered by the apps that take money.

Payments keeps every payment, refund and dispute (``payments.ledger`` reads them); what a
payment paid for is an app's object (a sponsorship, a donation), which only that app can
describe: its programme and its contributor. Each app registers its model with a function
giving, for some of its objects' ids, ``{id: (programme, contributor)}``, and the
programmes it reports under (key -> public label, first in the page's columns, in the
order the apps register: INSTALLED_APPS order). So donations never imports sponsors, and
payments names neither.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal


@dataclass(frozen=True)
class Income:
    paid_at: datetime  # a refund or lost dispute: when it took the money back
    currency: str
    amount: Decimal  # negative for a refund or a dispute
    programme: str  # a key of the registered programmes
    contributor: str  # who gave, as a stable opaque key ("organisation:12")
    demo: bool = False  # recorded by load_demo, shown as demo data
    description: str = ""  # the public line for it ("Gold sponsor: Acme"), or ""
    taken_back_by: str = ""  # REFUND or DISPUTE for money taken back, "" for a payment

    @property
    def label(self) -> str:
        """The public line, saying what a negative one is: "Refund: Gold sponsor: Acme"."""
        if not self.taken_back_by:
            return self.description
        kind = TAKEN_BACK_LABELS[self.taken_back_by]
        return f"{kind}: {self.description}" if self.description else kind


REFUND, DISPUTE = "refund", "dispute"
TAKEN_BACK_LABELS = {REFUND: "Refund", DISPUTE: "Taken back by a dispute"}


# (programme, contributor), or (programme, contributor, public description)
Describe = Callable[[Iterable[int]], dict[int, tuple[str, ...]]]
_payers: dict[type, Describe] = {}
_programmes: dict[str, str] = {}


def register_payer(model: type, describe: Describe, programmes: dict[str, str]) -> None:
    """Payments made for ``model`` objects count as income of the programme and
    contributor ``describe(ids)`` gives for each object id."""
    _payers[model] = describe
    for key, label in programmes.items():
        _programmes.setdefault(key, label)


def payers() -> dict[type, Describe]:
    return dict(_payers)


def programmes() -> dict[str, str]:
    return dict(_programmes)
