"""reference.selectors: `LabelSelectorAsSelector` (apimachinery meta/v1 helpers_test.go
TestLabelSelectorAsSelector, v0.37.1) and the error texts of `labels.NewRequirement`."""

import pytest

from reference.selectors import LabelSelectorError, label_selector_as_selector, label_selector_matches
from reference.types import LabelSelector, LabelSelectorRequirement as Req

FOO_BAR = {"foo": "bar"}
BAZ_IN = (Req("baz", "In", ("qux", "norf")),)


@pytest.mark.parametrize("selector,matching,not_matching,empty", [
    pytest.param(None, [], [{}, FOO_BAR], False, id="nil is Nothing"),
    pytest.param(LabelSelector(), [{}, FOO_BAR], [], True, id="empty is Everything"),
    pytest.param(LabelSelector(FOO_BAR), [FOO_BAR, {**FOO_BAR, "x": "y"}], [{}, {"foo": "baz"}], False,
                 id="foo=bar"),
    pytest.param(LabelSelector(match_expressions=BAZ_IN), [{"baz": "qux"}, {"baz": "norf"}], [{}, {"baz": "x"}],
                 False, id="baz in (norf,qux)"),
    pytest.param(LabelSelector(FOO_BAR, BAZ_IN), [{"foo": "bar", "baz": "qux"}], [FOO_BAR, {"baz": "qux"}], False,
                 id="baz in (norf,qux),foo=bar"),
])
def test_label_selector_as_selector(selector, matching, not_matching, empty):
    parsed = label_selector_as_selector(selector)
    assert parsed.empty() is empty
    assert all(parsed.matches(labels) and label_selector_matches(selector, labels) for labels in matching)
    assert not any(parsed.matches(labels) or label_selector_matches(selector, labels) for labels in not_matching)


KEY_ERR = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
           "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
           "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")


@pytest.mark.parametrize("selector,message", [
    pytest.param(LabelSelector(match_expressions=(Req("baz", "Exists", ("qux", "norf")),)),
                 'values: Invalid value: ["qux","norf"]: values set must be empty for exists and does not exist',
                 id="Exists with values (upstream's error case)"),
    pytest.param(LabelSelector(match_expressions=(Req("n", "Gt", ("1",)),)),
                 '"Gt" is not a valid label selector operator', id="Gt is a node selector operator only"),
    pytest.param(LabelSelector(match_expressions=(Req("baz", "In"),)),
                 "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
                 id="In without values"),
    pytest.param(LabelSelector({"a b": "c"}), f'key: Invalid value: "a b": {KEY_ERR}', id="bad matchLabels key"),
    pytest.param(LabelSelector({"a b": "c"}, (Req("d e", "Exists"),)), f'key: Invalid value: "a b": {KEY_ERR}',
                 id="the first bad requirement is reported"),
    pytest.param(LabelSelector(match_expressions=(Req("k", "NotIn", ("ok", "-bad")),)),
                 "values[1][k]: Invalid value: \"-bad\": a valid label must be an empty string or consist of "
                 "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
                 "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
                 "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')", id="bad value"),
    pytest.param(LabelSelector(match_expressions=(Req("", "In", ()),)),
                 '[key: Invalid value: "": name part must be non-empty; ' + KEY_ERR
                 + ", values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty]",
                 id="one requirement's errors are aggregated"),
])
def test_bad_selectors_raise_upstreams_error(selector, message):
    with pytest.raises(LabelSelectorError) as err:
        label_selector_as_selector(selector)
    assert str(err.value) == message
