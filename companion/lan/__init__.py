"""How a phone at the table reaches this server: the machine's address on the LAN (``netinfo``),
the certificates it trusts over ``--https`` (``tls``), and the QR code that carries a table's
URL (``qr``)."""
