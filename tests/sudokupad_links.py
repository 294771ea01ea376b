"""Real SudokuPad links and the scl form SudokuPad makes of an f-puzzles object, for tests/test_sudokupad.py.

REAL: f-puzzles payloads (LZ-String base64 of f-puzzles JSON), as SudokuPad's `fpuzzles` links carry them, from
dclamage/SudokuVariantSolverJS, puzzles/puzzles.json (commit 06eaf43), whose puzzle data is licensed under the
Creative Commons Attribution 4.0 International License (CC BY 4.0); title and author as that file names them.

PARITY_FISH: "Parity Fish" by Marty Sears, a real SudokuPad `scl` link (zipped, written by Sudoku Maker), from the
Sudoku-Bench dataset card (SakanaAI/Sudoku-Bench, MIT License). Its parity lines are drawn in a background image,
its dots as overlays; its metadata carries its solution.

`scl_of` makes the scl object SudokuPad's own f-puzzles decoder makes of an f-puzzles object (marktekfan/
sudokupad-penpa-import, src/sudokupad/fpuzzlesdecoder.js, MIT License, read for the shape, not copied): givens as
cells' values, regions listed in their number's order, a Killer cage `unique` with its value and sum, an extra
region a cage of style `extraregion`, the disjoint groups cages of type `disjoint` and a global rule, the rules of
the whole grid global rules, a diagonal a line from corner to corner, the metadata as cages (`title: ...`).
`zipped` writes it as SudokuPad's puzzlezipper.js does.
"""
from __future__ import annotations

import json
import re
from typing import Any

REAL = [
    ('Random Neighing Generation', 'Fraπ',
     'N4IgzglgXgpiBcBOANCALhNAbO8QCUBDAOwBMB7AWwAIA5GCAcwAsJjHqBxGYmAJ0IZyxEKkIBXNM3J8EIAGIDAA8CiQjPhFIIA2'
     'ttAA3QlnG4AjKkYR9PBGj4mAvsmBODRkwgDMFqzfh3HZ1dgoNCXAF1kPRCXMJBDY1wAJh9rEX97GBjXePdcAFZUvwCsoMjosOznX'
     'MSEFDVfdJKqiKjY9paYmo94cwa020zg8o64hJ7vfuKhsbyEQqmmmdHWirda+AB2IqXAlc6ytpbu3AAOHcG9g9X2k68LjKvZjYA2B'
     '+bKypHrrvGC9+WOT+CG2i0uWXCkRAJAwAGtiExmGhwahSBAwAArchsNDqcjiAAOYBR4HIxiE6W05hS3gALMhCm9tucUMzkChqcg6'
     'QzkG96YzkGyOcgaVzkPzeYLkCzkJzhaKJUzpZKhbKRWKJQLVZzuQqeUqZeZDeruVrwg4gA=='
     ),
    ('October 10, 2023: Killer', 'clover!',
     'N4IgzglgXgpiBcBOANCALhNAbO8QHkBjNAewCMYAnAAgEYAGZagJnuYGZ5qBpCLHSiFQBDAK5oAFiUF5CWEgDcqAQiEhKonGBhoE'
     'IAHLSAtsKzUwogCYkA1qOoat1YQAcXWAJ4A6agBEIAOaYYNQQAHbUhMIBMCHW1GEkaA4wLjDCycJhltRGomDJFkbUpCUSMKHZEFF'
     'oMDmkaKZgPmoBlBCWCADaXaBBSmEACjBhhHwAssKUNmAIYZpYAL7IfRADw6MTUzNzC8ur6yNjWJPTs/Dz/Psg/SMbx6c7F3srN2t'
     '3R1tnu1evt0OfE7bc6XJZ/d4AzZA77PX4HD5Qx4gl7wyEPYE/JYAXWQvTeh0RGNhYNR9y+T1B13+ZOhFJR+IR6JhlPBBKZdLhDLR'
     '5ORnOpgKRmKpEJpguJwrZPKFOLx/MJzPpcvZvJJXNFRJZpIFGsVIu1Cr5evlHNVSql4tZjPNmrV+pNixlWuNKolVtpLst3PdQs96'
     'oNpqNyp9TqDFpD1t1ku9YdtzuluPD0ZtZqTkbdYuTgYjhqjGbTXrzOfTOqLBZLAdz5YdCdjoczlf9rrLjd9do9icLFeLLY7VdbcZ'
     'jKc71dlWdTpb99v7dfzk/btezXebU97PYX46Xc/jo4bK/Xw+ni6bW8HY4Pq73Q77F/nV8bjv318fa7vl7PT9ft/fL+/b93X//aUc'
     'RAGw+AEKIYm6UBCBgfhzi6EAACVaAAYVoNRkJQ5gMOYNCcKwkBgIUUxRFwEAGBAa4YLg7okNQ9gMNQgAWQjUGIrBSL0AA2SjXmor'
     'B4KQ9g8NQRCmLwoiSLIgB2XjoNggTaMQ3CGNE3CWMkjiyMQOSQH4wTEOE7DRPE7DNM4vAKKohSDNQgAORiUJ0tSUIclydPMsjmB0'
     '6yaPgBDMJ40TUNkzy9FoABWXT9KU4TnKQ8SPLYqTwoY3zFP8oTXIw8SHLCyz6GimylNwoKkNw0Lkq08L0PSgy7JEpCGuMpDEEaxC'
     '2rMqqLJAdhCrqpSuII0TpII/LyJYgbMsQhrVKalCNO6sjaDSvjiumob0JGiSlvC/q1r8gK2rmjqFtYkB2J6nyDoygKGrc+b4tOh7'
     'TqSi6UoKorDvmsqZpQyr3uqyzapugyhpe0a8t24Gvtu1qUN+tqAcu5bVvk77EKGp7RrelG9thgzhJO8SGPGyKCaU0aTtGxbAZ6qK'
     'poCobZO25GPvItG9PWgLhN+4S2aBkBJuAywIDAYQyBwSx5CCQhumAtANBgKIqksDJYhIFwMBIMJ4OAsASA47Wwm6ZhkHYZAIuQWh'
     'kCY5AUC45BpOQOzbetp3kDNx3XYtlAre9+3LY9i2bbNu3Q+QR2Latu3nddv23Yt+OPbNm3HedlBXcd1O3ati3o/du3XbNh2Pdd52'
     '7ZQNOg4tkvI894Og9d8OsUWIA==='
     ),
    ('4SquareX', 'Fraπ',
     'N4IgzglgXgpiBcBOANCALhNAbO8QBYBlARwFcBDAJxgA0RVzS0ALAe0oRADFLzAB4HogA5pQgATBAG1JwAL7JQAN3JZSuFMIiKYA'
     'OwRpKa+XIXGQy1bgCMqIVt37DMYy9OmAushmuTSlWoQNO209eAMjNz9LBAAmW3tQ8OdIl09vSPN/XDjNEMcI3x9M6PgADni8sKcf'
     'WTTfYoCyiocqgpqUhQbcAGZmxOqPLyjG3tyWpPbCjvqLRoB2PvznOrNZ3AWx/rbporWEfEXW5LkVjL34A82lydWshAA2Q4mU06nh'
     '3Eero927pCeBt61IY3TrnACs/22M1+Ni+zxOnhAYgg5CErB0KgA1EtUMjUeiVABaHEgGAADwMVBgdnRUlAAGMYFgsGApCAAEoxAD'
     'CMUEnK53T53PwfO6PNFAolItQ7Pw4plcsFCq5IvcZkZzNZ8EkHO59yFXLmBtKEv1MrFRvNXJNyrNHLllvt1pAas6GpZbPZ93lHO9'
     'St9Kr5cx97OD/tDgZlpRD0fD0dV6qZHu1AbtXsNfO9No5wbTwcdEez7OjaejBejJrViLArFUGFp2vKKAhBxsC16cUejxsvRQ5TiB'
     'wWEIWBziEN6jybyBsB3KjwWY+nyF7y+QcRsU4OEPnyGHyBQNkeHeQs/3u5Pa+QC0PyHKvR7t+QjwOKCHl87V9XEKnM7VQA=='
     ),
    ('September 2, 2023: Antiknight', 'clover!',
     'N4IgzglgXgpiBcBOANCALhNAbO8QGUYAHNGAWwCMYAnAAgCZkGAGegZnloEEA7DAax4QA5gAs0IVAEMArmlEB7aghABjLAoBuNAI'
     'SSQ1GTjAwJeAHJKyUrLTAyAJgv4zah47SlEiWAJ4A6WgAREUwwT1pBEXEAcnCyLRhPIilqNFoACilwiB5aVVEYMDAASk9qJJ4YbT'
     'oIBxg+CFUbQP1hajqEAG0u0GEIbR4ABQbVCCwAWVT+MAQeIywAX2RQTRsZXABGVH7BhDRDGB2BhpGeMcnp2fh5rCWVkDWsDYRGEF'
     '2G/cPjwbOLqeoMzmC2Wq3WuDYP0+8AOGyhw1G4wBQJuIIeTxe8AALPCvnD3icEeckVdgXdQQTfojLoDrrd7n1CX8SbSyQzKadqci'
     '6WjGVTiTSUfTFgBdZC9DlE/6k1Hkh4fKUsoW8yXMwU8uV8zkC7lsikKtW62Xsg1cmXC+VMs2s436q0680q00Om3CsUS53S11O+1e'
     '5Wa1XW/0m31KjXsjG4ACsuJh30DLuDFMjCAAbLHYUcE37w8nwQgAOwZ+OesN69H5+AADmL+NL6vLWsVDdt7rBzy2taz9aNFqbhsd'
     'AZ7g5D/JzjezZdtlrHU77k5b8+H3oDKerXfhA5XSzbC97Ptni4P2vH0/7QdzM5Pc+Pzf3Q9DR4fh/vo+vT534vbmPTkrx3cfV87R'
     'fEdgPfICrzvUDIK3JMYIvCdlzg89E0vb9cBQP84zrQDQN3JC0MeSsYywzNNwQs8iI7BBIVIktcO3PNqPgN4FX/cjUInNdtjonCQM'
     'Y+DOMogjEIY5C9zwr8JIElDTyXMTCJE4SFNE/jxKU+S1MUlTWykjTb1g7StNU8DoPQhAa14gDjMotciysji5JVNdMLY7DrNMmSqM'
     'xHEHOk9SdLdMUQCkRoojEMwyJABwIDAKQKBwBwNH6VRujUBQ+GoKQYtUDAMtmYLM2aHgYocKRSDABQSAgfLumCyrnjynhuiLbZGE'
     'hHEaxjFB0xjGt0yLFB2uQbYcUhFAcW2GMBuQGtGG2QbkDG5BpuQRgaxxdbkBmlBtkhVb9tmtaRqW5BFpQGNIXm07+rOo6cUW9Mrp'
     'Wk7GHTKajsWsaRUWIA=='
     ),
    ('Jan 25, 2021: Non-consecutive', 'Sam Cappleman-Lynes',
     'N4IgzglgXgpiBcBOANCALhNAbO8QCkBDAOwAIAmAVmQoAZyBGeUgOQHtiBaAYw7Bm4BXDADc4qQsIAWbAE4IQAZUIBbUgGFCABy0'
     '4VJTgBkAnsRhgQqWYJz80C9rP1ZSiwQBM2Aa0Glrt0m1dYwA6UgARCABzTDBSCDJCdwArQm4YYjRSdKwsOO4SYjYsgCMYbL4BYQg'
     'xEMsQKNkIdwQAbVbgAF9kLp7u0BFCLEFcFAaajIQ0axh+kEHh3AB2VBixYimZuYWRhABmVYmN+GmR7aHd+Gpx9c2zvr6AXWQO/vP'
     'FhGu1yZOtnvmLrgGIdbr97r0IQCPvADjcfqdZv8dssQfC/l1nh0oZcxt9jgj3pcVnD8ejsbhYXi7oiIW8HgNAQhgSTqW9MQzocyq'
     'WCaXTafTCaNUaTweSEMTuQT2WL4BKjqyBYr+ZDkfthazpaqYeqeYLPjqCUq+XyZVz5br2Xr4GbQYblSatXLbWStZTzXaZV93VtLU'
     'jGdqWbq/dCnWjwQ7/TawzSZbjveGni9lbGDS7/aGRTHXanRVqvc6E7THs8QEViLxiPwhKJcAjUGA2MMMBw2gAWZAADmQwJQKwO1H'
     'IyAAbMPkIPqMD212DisUL3kP2x6Ou5Pu8gpwvkAPR/PZ8u1+3x5vF4OR/ON8CV+ul2fkH2tw+Z9erygR4PT8h54vVx3Hp0gA'
     ),
]
PARITY_FISH = (
    'https://sudokupad.app/sclN4SwJgXA5AzgHjAtgfQLIEMBOAXAngZQFMsZkBWADgAYBjANgDMwAjV9ATmYeasIHYAjOkID2VACziGVAExhx'
    'NKABpEhbOjDp1EYDAD2AV0w1C0fAbB6A1gYAEGK4Uy2AbjNlkAdLM8zxAWhoaBjJ0CjpldANsAAs9TGgMHFxbIhJlTAMAG0IYaAA5eMR0LNsYC'
    '2s7TJyYW3QAB3qs3ABuWwYQLNLYwlsAc0xwWwB3EFjbHtswED6x2oF/djK9CZitKZm5qb0AOwAdKGxbTEJ64iOQHbqdlMw9YaVbGj0sg0Qdx/Q'
    'dsFtizEcfgBmOCA2zMPRwTx7HYAFWGKxMXVqGgAVugTDsjiVdn06sdCD8spdeogDDAjs9MehLrZdr1CC5CFdprMsd9aTtenowD8WWMobD4U9CE'
    'inrtOTRsASwSl0CMYmNepYKbt1DTKTBCDRoiBGRtWTABXCESKsrVKRKpT9mLKwVl0VZtiqqTS+dhasMYk4uZzbCBapYDMwcqsuT1MJ5lPpXtgQ'
    'LtoBQyOJAXR2AI+DJ2Hw6DIyAIKIDxAIZIW+BR2GQ6EWKxQS3Q+JXy4C+OIZMXmwJxHQyOwKGXK+xWwIU2na83xGRCzJBI32MpmLNin1TFAYth'
    'sPU8gB6LcgTwgRB9IyeZ6ILc7QEgADy2HE+U8KLOfXni/Qy709XRY1wEAESmw0AAApYN+tgAGL+jEUAAL5KCYEAANoIUoKGoShAC6SjIWhqGYd'
    'hOFKHhBEYVhxGEaRxFEZRFEEVRtGYSciFIVQShUHhLECOxSgyHhf5sVhf6cQJ3F4TIrGiUoQkIWJPF4QhLGAlx4hcWQvFKIpwnKcJqlYWJGnSU'
    'oWkGapcksXQXF8FxFBqeZwmWcJ1m6UotkGfZBnWXJgLiVhXlSV5PFYeI3kIUFUlBQFCFkMFUVSVFslYQhXn6V5RleTpIXqXhQVGUF6VRfpUVGV'
    'FJkJV5LleW5XmORlLlBW5QXVVFLlRW5UUeQldDBZ1UmdRFfDBf1Un9RFFDBaNUmjfFSGdfpnVGZ16X9fp/VGf16Wjfpo1GaNJXTc5eGdW5nXVf'
    '1Ln9W5/XVaNLmjW5o0eZheiIcAkqIYCnhtZhwwQFQniFkoMQ/X9QWxL+vijVK0DKDQEAAMQsQk2BwTIcNgXBAhw1QsEvQBIUfUojnfb9/2A8TI'
    'OAwI4P/iu0OY0oiPI6j6OY9jr2RfjhNAyTXPk2DMgQzTcF0wzNAo7DaM0Bj8Os7j4j40JRPAwDPP/hTVOQ1AtPw/TEBI6LTOSyzSg44hk0fV9K'
    'uk0roOU/z1NQ0L2si2LEtS1jxts/1v06Yr3Nk6rfMCw7MNO7rjPi8z0se7jfHm0ovtBVb/02+rgshwjYf6xHhtRybCF0Pj9kJ8r/sp3bGtaxne'
    'su5H7t5wXMUW/7Se87bQea47Vfh67Rt5xQHNN0rLcB239sd+nOvVwbbsy4hfD4z7lsq2X7eV5P3e17PCF/u9i/N8vavl2nwuZzXOd157SheHvQ'
    '8H4HY9r870+92zYkN4PfvW4fq+d+vWc97nNm3sRLxyXqXb+D9f5P2zjPaOiE/xyxvp/ZOECK5QNPs/QBuNfJx19l5JOXk0EhzRtAi+2DC4f3wV'
    'zQhx8I6kK3jJXB1CS5/RocHJm9C4EIX7nFShLDARsPHhwjBWDTZKHnkgqhxNBFaxISIrG6FoJAA'
)
PARITY_FISH_SOLUTION = "854369172976251834123478956419582367568937421237146598785694213691823745342715689"

SHORT_KEYS = {"color": "c", "cages": "ca", "center": "ct", "borderColor": "c1", "backgroundColor": "c2", "cells": "ce",
              "cellSize": "cs", "arrows": "a", "overlays": "o", "underlays": "u", "width": "w", "height": "h",
              "value": "v", "videos": "vd", "lines": "l", "rounded": "r", "regions": "re", "fontSize": "fs",
              "thickness": "th", "headLength": "hl", "wayPoints": "wp", "title": "t", "text": "te", "duration": "d",
              "d": "d2"}
GLOBAL = ("antiknight", "antiking", "nonconsecutive")


def point(name: str) -> list[int]:
    r, c = re.fullmatch(r"R([0-9]+)C([0-9]+)", name, re.IGNORECASE).groups()  # type: ignore[union-attr]
    return [int(r) - 1, int(c) - 1]


def box_shape(side: int) -> tuple[int, int]:
    height = int(side ** 0.5)
    while side % height:
        height -= 1
    return height, side // height


def scl_of(puzzle: dict[str, Any]) -> dict[str, Any] | None:
    """The scl object SudokuPad makes of an f-puzzles object; None when the object holds what this maker does not
    convert (a thermometer: SudokuPad draws it as lines)."""
    n = puzzle["size"]
    if set(puzzle) - {"size", "grid", "title", "author", "ruleset", "solution", "killercage", "extraregion",
                      "disjointgroups", "diagonal+", "diagonal-", "disabledlogic", "truecandidatesoptions", *GLOBAL}:
        return None
    height, width = box_shape(n)
    cells, regions = [], {}
    for r, row in enumerate(puzzle["grid"]):
        cells.append([{"value": cell["value"]} if cell.get("given") else {} for cell in row])
        for c, cell in enumerate(row):
            region = cell.get("region")
            regions.setdefault(r // height * height + c // width if region is None else region, []).append([r, c])
    found: dict[str, Any] = {"id": "fpuzzles-test", "cellSize": 50, "cells": cells,
                             "regions": [regions[k] for k in sorted(regions)], "cages": []}
    for cage in puzzle.get("killercage") or []:
        part: dict[str, Any] = {"unique": True, "cells": [point(p) for p in cage["cells"]]}
        if cage.get("value") not in (None, ""):
            part |= {"value": str(cage["value"]), "sum": int(cage["value"])}
        found["cages"].append(part)
    for region in puzzle.get("extraregion") or []:
        found["cages"].append({"style": "extraregion", "unique": True, "sum": n * (n + 1) // 2,
                               "cells": [point(p) for p in region["cells"]]})
    rules = [rule for rule in GLOBAL if puzzle.get(rule)]
    if puzzle.get("disjointgroups"):
        listed = found["regions"]
        found["cages"] += [{"cells": [region[i] for region in listed], "unique": True, "type": "disjoint",
                            "style": None} for i in range(n)]
        rules.append("disjoint")
    if rules:
        found["global"] = rules
    lines = [{"color": "#34BBE6", "thickness": 2, "wayPoints": ends} for sign, ends in
             (("+", [[0, n], [n, 0]]), ("-", [[0, 0], [n, n]])) if puzzle.get(f"diagonal{sign}")]
    if lines:
        found["lines"] = lines
    for field, name in (("title", "title"), ("author", "author"), ("ruleset", "rules")):
        if isinstance(puzzle.get(field), str) and puzzle[field]:  # (SudokuPad would write `title: true`)
            found["cages"].append({"value": f"{name}: {puzzle[field]}"})
    if isinstance(puzzle.get("solution"), list):
        found["cages"].append({"value": "solution: " + "".join(map(str, puzzle["solution"]))})
    return found


def zipped(puzzle: dict[str, Any]) -> str:
    """An scl object in SudokuPad's zipped form: empty lists left out, short keys, whole-number strings as numbers,
    keys unquoted, empty objects left out, t/f, short colours, single quotes."""
    def short(value: Any) -> Any:
        if isinstance(value, list):
            return [short(v) for v in value]
        if isinstance(value, dict):
            return {SHORT_KEYS.get(k, k): short(v) for k, v in value.items() if v != []}
        if isinstance(value, str) and re.fullmatch(r"-?[1-9][0-9]*|0", value):
            return int(value)
        return value

    text = json.dumps(short(puzzle), separators=(",", ":"))  # ASCII: py-lzstring keeps no character past U+FFFF
    text = re.sub(r'(?<=[,{\[])"([a-zA-Z0-9]+)":', r"\1:", text)
    text = re.sub(r"(?<=[,\[]){}(?=[,}\]])", "", text)
    text = re.sub(r"(?<=:)false(?=[,}\]])", "f", text)
    text = re.sub(r"(?<=:)true(?=[,}\]])", "t", text)
    text = re.sub(r'(?<=:)"#000000"(?=[,}\]])', "#0", text)
    text = re.sub(r'(?<=:)"#FFFFFF"(?=[,}\]])', "#F", text)
    text = re.sub(r'(?<=:)"#([0-9a-fA-F]{6})"(?=[,}\]])', r"\1", text)
    return text.replace("'", "\\'").replace('"', "'")
