"""A tournament event without any widget: the organizer's service and desk, event codes and copies,
the format and sign-up lists as entered, numbers typed into forms, and who may open the organizer."""
