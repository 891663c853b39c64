"""HTTP and websocket routes: thin adapters from requests to the table service."""
