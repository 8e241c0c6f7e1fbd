"""The store's operations, each written ONCE over :class:`db.tx.Tx` and run by either engine
(:mod:`db.sqlite`, :mod:`db.postgres`): one module per concern, each a mixin of
:class:`db.tx.Engine` with the methods of its part of the store (each with its docstring: its
contract), composed into :class:`db.ops.store.GameStore`, and the functions
another concern's transaction calls (an outbox row queued inside a resolution, an audit row
inside a host action). See docs/STORAGE.md."""
