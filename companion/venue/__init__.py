"""A venue (issue 44): a café's or a club room's physical tables, each with a printed tent whose
QR code opens that table, and the staff who look after them.

``labels`` reads what an operator types (table labels, the Wi-Fi) and words the Wi-Fi's QR
text, pure like ``companion/games/``; ``store`` keeps the venues, their tables' tent secrets and
which game was played at which table. What is served lives in ``companion/web/venue_api.py``.
"""
