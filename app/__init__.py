"""Farkle Table's Flet app: screens that render engine state, and the storage behind them."""
