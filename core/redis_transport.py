"""The Celery broker's Redis transport: kombu's, with the worker kept alive when Redis
goes away while a task is in flight (issue 47).

On losing the broker the worker's consumer first *collects* its connection (kombu drops
the transport's reference to it), then closes it. Closing a channel that still holds
unacknowledged messages (a task running with ``acks_late``, or waiting for its ETA)
tries to put them back in Redis through that collected transport, and kombu 5.7 fails
with ``AttributeError: 'NoneType' object has no attribute 'hostname'``, which the
consumer does not expect: "Unrecoverable error", and the worker exits.

Redis is unreachable at that moment anyway, so nothing could be put back. The messages
stay where Redis keeps them (its unacknowledged set) and are delivered again after the
visibility timeout, as after a worker killed outright; tasks are safe to run twice
(``CELERY_TASK_ACKS_LATE``). The worker reconnects when Redis is back.
"""

from kombu.transport import redis


class Channel(redis.Channel):
    def close(self) -> None:
        transport = self.connection
        if transport is not None and transport.client is None:
            # Collected after a broker loss: there is no connection to restore through.
            self.do_restore = False
        super().close()


class Transport(redis.Transport):
    Channel = Channel
