import re
from urllib.parse import unquote

from django import template

from search.query import MAX_QUERY_LENGTH

register = template.Library()

PATH_WORD = re.compile(r"[^\W\d_]{2,}")
PATH_NOISE = {"html", "htm", "php", "aspx", "index", "www"}
MAX_PATH_WORDS = 6


@register.filter
def path_words(path: str) -> str:
    """Words of a missing page's address to search for: "/news/mariadb-11-released/"
    gives "news mariadb released"."""
    words = []
    for word in PATH_WORD.findall(unquote(path or "")):
        word = word.lower()
        if word not in PATH_NOISE and word not in words:
            words.append(word)
    return " ".join(words[:MAX_PATH_WORDS])


@register.simple_tag
def max_query_length() -> int:
    """The longest search accepted, for the ``maxlength`` of search inputs."""
    return MAX_QUERY_LENGTH
