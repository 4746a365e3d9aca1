"""The venue network: the web server and what one device may cost it, where each client is,
and the addresses the phones reach the app on."""
