"""Discord adapters: slash commands, buttons and selects that call the table service."""
