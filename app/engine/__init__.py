"""Pure game engines; import nothing from app outside app.engine."""
