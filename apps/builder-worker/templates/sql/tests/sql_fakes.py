"""A small table under the configured table's name, for the engine tests."""

from __future__ import annotations

from agent.database import SqliteDatabase, source_table


def sales_database(settings) -> SqliteDatabase:
    import pandas as pd

    frame = pd.DataFrame({"region": ["North", "South", "North"], "amount": [10.5, 20.0, 4.5]})
    return SqliteDatabase.from_frame(frame, source_table(settings))


def quoted_table(settings) -> str:
    table = source_table(settings)
    return '"' + table.replace('"', '""') + '"'
