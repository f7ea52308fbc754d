"""`python -m app.migrations` (`make migrate`): brings the database named by
TABLETOP_DATABASE_URL (default: the SQLite file of `make run`) to the newest revision."""

from app.migrations import database_url, upgrade

if __name__ == "__main__":
    upgrade(database_url())
    print("The database is up to date.")
