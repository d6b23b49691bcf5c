"""The rules of the table: actions as value types, their handlers, who may act, money, settlement."""
