"""Exceptions raised by ns3flux."""


class ScenarioError(ValueError):
    """A problem with a scenario.

    ``str(error)`` is the one-line message ``<field>: <problem>`` that
    ``flux-run`` prints (after its ``flux-run:`` prefix) for the same
    scenario. ``field`` is the path of the offending value in the scenario
    (``topology.leaves``, ``jobs[1].ranks``) or the scenario file itself;
    ``problem`` says what is wrong with it.
    """

    def __init__(self, field, problem):
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem

    def __reduce__(self):
        return (type(self), (self.field, self.problem))


class RunError(RuntimeError):
    """A run that failed for another reason than its scenario.

    The message is the one ``flux-run`` prints: ``run failed: <reason>``.
    """

    def __reduce__(self):
        return (type(self), self.args)
