"""nqueens.blocking, which runs the shared calls (grpc.aio code) for the
blocking client: a coroutine that never suspends runs to its end at once."""
import asyncio
import unittest

from nqueens import blocking


class BlockingTest(unittest.TestCase):

    def test_a_ready_coroutine_runs_to_its_value(self):
        async def doubled(value):
            return 2 * await blocking.ready(value)

        self.assertEqual(blocking.run(doubled(21)), 42)

    def test_a_coroutine_that_suspends_is_refused(self):
        with self.assertRaisesRegex(RuntimeError, "not ready"):
            blocking.run(asyncio.sleep(0))

    def test_leaving_the_loop_early_closes_the_async_iterator(self):
        closed = []

        async def numbers():
            try:
                for number in range(10):
                    yield await blocking.ready(number)
            finally:
                closed.append(True)

        for number in blocking.iterate(numbers()):
            if number == 2:
                break
        self.assertEqual(closed, [True])
        self.assertEqual(list(blocking.iterate(numbers())), list(range(10)))


if __name__ == "__main__":
    unittest.main()
