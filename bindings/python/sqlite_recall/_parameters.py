"""The named parameters of a SQL text, found as SQLite's tokenizer finds them."""

import re

# What SQLite's tokenizer skips, and what it reads as a named parameter (`:name`,
# `@name`, `$name`): string literals, quoted identifiers and comments can hold a colon
# followed by a word without it being one ('12:30', "a:b", -- see :x).
_TOKEN = re.compile(
    r"""'(?:[^']|'')*'?"""
    r'''|"(?:[^"]|"")*"?'''
    r"|`(?:[^`]|``)*`?"
    r"|\[[^\]]*\]?"
    r"|--[^\n]*"
    r"|/\*.*?(?:\*/|\Z)"
    r"|[:@$]([A-Za-z0-9_$\u0080-\U0010ffff]+)"
    r"|[A-Za-z0-9_$\u0080-\U0010ffff]+"
    r"|.",
    re.S,
)


def parameter_names(sql):
    """Each named parameter of `sql`, without its prefix, in order of first use."""
    names = {}
    for match in _TOKEN.finditer(sql):
        if match.group(1) is not None:
            names.setdefault(match.group(1))
    return list(names)


def parameters(sql, **values):
    """Every named parameter of `sql` as a dict for `execute`: None (SQL NULL, which
    the files of sql/ read as the default) unless given in `values`.

    A name that `sql` does not use is an error, so that a misspelt one cannot be
    ignored in silence.
    """
    names = parameter_names(sql)
    unknown = [name for name in values if name not in names]
    if unknown:
        raise ValueError(
            f"sqlite_recall.parameters: the SQL has no parameter :{unknown[0]}; "
            f"its parameters are: {', '.join(names) or 'none'}"
        )
    params = dict.fromkeys(names)
    params.update(values)
    return params
