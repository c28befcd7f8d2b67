from datetime import date

import factory

from foundation.models import BoardMeeting, BoardSeat, Person


class PersonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Person

    name = factory.Sequence(lambda n: f"Board Member {n}")
    slug = factory.Sequence(lambda n: f"board-member-{n}")


class BoardSeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BoardSeat

    person = factory.SubFactory(PersonFactory)
    constituency = BoardSeat.Constituency.COMMUNITY
    office = BoardSeat.Office.MEMBER
    term_start = date(2023, 1, 1)


class BoardMeetingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BoardMeeting

    date = date(2024, 3, 12)
    title = "Board meeting"
    is_published = True
