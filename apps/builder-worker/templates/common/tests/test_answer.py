"""Answers render as Markdown with data shown literally."""

from agent.answer import Answer, escape_markdown, markdown_table, to_markdown


def test_markdown_characters_in_data_are_escaped():
    assert escape_markdown("*bold* | [link](x)") == r"\*bold\* \| \[link\]\(x\)"


def test_tables_keep_one_line_per_row():
    table = markdown_table(["name", "note"], [("a|b", "two\nlines"), ("c", None)])

    lines = table.splitlines()
    assert lines[0] == "| name | note |"
    assert lines[2] == r"| a\|b | two lines |"
    assert lines[3] == "| c |  |"


def test_an_answer_shows_its_sql_table_and_sources():
    answer = Answer(
        text="Two rows.",
        sql="SELECT 1",
        columns=["x"],
        rows=[(1,), (2,)],
        sources=["report.pdf, page 2"],
    )

    markdown = to_markdown(answer)

    assert markdown.startswith("Two rows.")
    assert "```sql\nSELECT 1\n```" in markdown
    assert "| 2 |" in markdown
    assert r"- report\.pdf, page 2" in markdown


def test_the_command_line_prints_plain_text_without_markdown_escapes():
    from agent.answer import to_text

    answer = Answer(
        text="Two orders.",
        columns=["file_name"],
        rows=[("sales_orders_2024.csv",)],
        sources=["sales_orders_2024.csv, row 2"],
    )
    text = to_text(answer)

    assert "sales_orders_2024.csv, row 2" in text
    assert "\\" not in text
