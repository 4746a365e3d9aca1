"""One module per screen; each builds controls from state and the app's callbacks."""
