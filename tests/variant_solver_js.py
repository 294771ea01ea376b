"""A few real records of SudokuVariantSolverJS's puzzles, for the fetch and conversion tests (tests/test_data.py).

From dclamage/SudokuVariantSolverJS, puzzles/puzzles.json at commit 06eaf432bdf56eae47b2a1816e3f23d3996897a3,
whose puzzle data (the `puzzles` folder) is licensed under the Creative Commons Attribution 4.0 International
License (CC BY 4.0) by David Clamage and contributors; each puzzle is by the setters its record names. Four of
the file's 85 records: title, author, f-puzzles payload (LZ-String base64) and the setter's solution as the
file holds them; `upstream()` lays them out as that file does (its other fields, and its closing `{}`).

Two the project reads (anti-knight; anti-knight with disjoint groups), and two with rules it does not read yet
(`negative` with `xv`; `arrow` with Killer cages, whose payload writes its own solution's numbers as strings).
"""
from __future__ import annotations

import json

RECORDS = [
    ('Anti-knight minimal givens 2', 'ryokousha, Rangsk, Philip Newman',
     'N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKLryBdZQmq8l54+x1p7rjtn/nQaCRIAG4BDADYBXOPACMqNBDEwAdggAuGOdz'
     '4Dx0uQgBMy1Ru26YTI7PkBmC2s3wde1vZPwALC6t3G2oDL0kHBABWALcPWzDjeQA2GOtPSm95AHZUoPSQ4QE7cJ8ADly4otCRIrp'
     '6EAl1LQgAa3UINAALLTTbIA=',
     '456127389137986452982534671598641237243875196671293548815469723324718965769352814'),
    ('Random Neighing Generation', 'Fraπ',
     'N4IgzglgXgpiBcBOANCALhNAbO8QCUBDAOwBMB7AWwAIA5GCAcwAsJjHqBxGYmAJ0IZyxEKkIBXNM3J8EIAGIDAA8CiQjPhFIIA2'
     'ttAA3QlnG4AjKkYR9PBGj4mAvsmBODRkwgDMFqzfh3HZ1dgoNCXAF1kPRCXMJBDY1wAJh9rEX97GBjXePdcAFZUvwCsoMjosOznX'
     'MSEFDVfdJKqiKjY9paYmo94cwa020zg8o64hJ7vfuKhsbyEQqmmmdHWirda+AB2IqXAlc6ytpbu3AAOHcG9g9X2k68LjKvZjYA2B'
     '+bKypHrrvGC9+WOT+CG2i0uWXCkRAJAwAGtiExmGhwahSBAwAArchsNDqcjiAAOYBR4HIxiE6W05hS3gALMhCm9tucUMzkChqcg6'
     'QzkG96YzkGyOcgaVzkPzeYLkCzkJzhaKJUzpZKhbKRWKJQLVZzuQqeUqZeZDeruVrwg4gA==',
     '123456789789123456456789123345678912912345678678912345567891234234567891891234567'),
    ('Anti-XV Coverage', 'Rangsk',
     'N4IgzglgXgpiBcBOANCALhNAbO8QEEA7DAWgA0A1AAgGEB7ANxgCcBDAczlVYFc0ALOswQgASq0LswAaxCp2zCABMEAbVXAAvsi0'
     '7tug/qM6QDVlh64AjPIhNCCNM0uaAusg3HDen99BmLXAAmW3tHZxg3Dz8vWN9Tc0sEADZQmAd4Jxd3T184mJMApPgAdjSMrMicgp'
     'rY6vyGvPq8ltrm2tajdsa29xBCGHZWDCY1EAAPBhA+ybVQAGMYLCwwMdEAZhoguTEAFi3p1CLcEDIQfRBF5dX4VT2adZ3Rfe2+45'
     'EKc5MrlbX93ae+wArIcEoEPl8FktfrcxECaCUnvDkqD3ngzhcfjc7qISginsl8W9EidPpjodixHiUahcTQQcTwXgyX0wHQLBg6Bl'
     'VGUQqkUAAOZC7ZBA5DrZA2IVimwS1JlFAikIilASmxikJlIWpGXC5AhCWC5Dy8XIIVlXWpJXIFAoVLK5Ba03q42Om1mvU2EJiiUO'
     'sX851uoWyj280WuxWuTRAA==',
     '726984531851367942493152786514239867387516429962478315679841253245693178138725694'),
    ('Sistine Hippos', 'Philipp Blume, aka glum_hippo',
     'N4IgzglgXgpiBcBOANCALhNAbO8QGUIwMA7GAAgAkIAHGgezBFQEMBXNAC3oCcEQACpwhZaNcgCEsbALYxk5FgGsW5AObSZAfWF1'
     '6zEDzY4wMNPwByvGSyzl8bACb0lbckZOK6WAJ4A6AB0SIIARCDVMMHIIEnIAYxY1GCiZNmJFR0dyNHpszgoIgDcYWJy0WwUAd0xO'
     'chJcnhgaGBY0MEDgkjCItvJ6WJYBnh56SvIwWWzcrgpHcMxo0vzFNHK4/Ky4iB44nD9yAEFh0fI5nqiE2Mbm1uiAM0UsLFGYLIAj'
     'Hz6ZnnGnFzcPMk/AY1DwII4EABtSHAAC+yDhCPhiJRyLRSIAusgYejUUj8Xi4VicQTcWTScTCeSqZjsTT6WTKdTmRS6SyGbSSRyG'
     'UzSXyeViQEoRDgdolcDCQHEYE8mPBISAAEoANgAwgAOAyKgDsGpAgsKtjYuBAiBAyKlMqwcoVKtVAEYtWqAEz61CG6QmzUW6WyqF'
     'KgAsqoDWqDAFY3SAPcb+GafVabUrdcqtbrtZHoyb7Y74375Urnar06hFQBmIsZo1ZgAM5oRlrztrDqrNJbVZoNVf46dz1v9OtVrp'
     'LutLlc9/GzddAvr7+cV6tVo5LiEXY5jeG99ZnicV9tVKZLhZTnfHG6nDdntt1EZLC5vSoXB4fFeX+61K/TJ/XIGdca3Cf7NUQ2HY'
     'MtQXEMvyzHt/0bJVyyHODV0gicc0FFhjkqKFQFEMgbSbF9AwIss3wxQVt37ZtPwtHDkihfDi0Ip9FXDfUyIAudKP1aiYlo+V6KdI'
     'jdU1UjUHIjiKwxbjcLopVOLbPV5I7NjYMVTjJPrGi8Nk1cSyDYDEIg5TL200d1OwnitNUnTtP05jVQjESLx3ZtTKk3joRMrVmwQu'
     '1HUcsT8NcjSLJkqylyVF1U0HVjRPYwKuOC6S+KVPdNUPIjy2Eoyd1SrjBTAehpAwfp/UdVBWx/AwnzSkAGPvcL9Jq8Kn30+8ysq1'
     'AGIq+8GP0hCKvCmr2qfCqn3a+8+oMQaDAYhD9IY8L2pqkaDHq1aDBqhiVtQdrJtQJ9+oMdqGpm9bUE2japoMCqEImqqjoMfTxsuz'
     'r7vKgwENcoA=',
     '192687534836451279574293816961542387247318695358769142629134758783925461415876923'),
]
REFUSED = {"Sistine Hippos": "arrow"}  # the field the reader names first
LICENCE = "Creative Commons Attribution 4.0 International (CC BY 4.0)"


def upstream(records: list[tuple[str, str, str, str]] = RECORDS) -> str:
    """The records as SudokuVariantSolverJS's puzzles/*.json lays them out: a JSON array, 4-space indents."""
    entries: list[dict[str, object]] = [
        {"title": title, "author": author, "license": LICENCE, "puzzle": payload, "solution": solution,
         "comments": "", "generatedCategories": []} for title, author, payload, solution in records]
    return json.dumps([*entries, {}], indent=4, ensure_ascii=False) + "\n"
