// The box's own sentences (the camera's, the table's notes, the engine's refusals) in the page's language: the
// server writes them in English; on the Korean page the known ones are shown in Korean, any other as written.
// The games' own sentences come with their Korean from the server (log_ko, why_ko, message_ko).
(function () {
  const C = window.Companion;
  const listed = (values) => values.replace(/ and /g, ", ");

  const KOREAN = [
    [/^Reading the dice…$/, () => "주사위 읽는 중…"],
    [/^Camera ready\.$/, () => "카메라 준비됨."],
    [/^Camera offline — enter rolls by hand\.(.*)$/, (m) => `카메라 꺼짐 — 굴림을 직접 입력하세요.${m[1]}`],
    [/^Could not read the dice surely — please roll again\.$/, () => "주사위를 확실히 읽지 못했습니다 — 다시 굴려 주세요."],
    [/^A die is cocked — please roll it again\.$/, () => "기울어진 주사위가 있습니다 — 다시 굴려 주세요."],
    [/^I see no dice on the tray — please roll again\.$/, () => "트레이에 주사위가 보이지 않습니다 — 다시 굴려 주세요."],
    [/^The dice never settled — please roll again\.$/, () => "주사위가 멈추지 않았습니다 — 다시 굴려 주세요."],
    [/^The dice have not moved since the last roll — please roll\.$/, () => "지난 굴림 뒤 주사위가 움직이지 않았습니다 — 굴려 주세요."],
    [/^The camera moved, but the dice lie as they did — please roll\.$/, () => "카메라가 움직였지만 주사위는 그대로입니다 — 굴려 주세요."],
    [/^The camera has read this roll's (.+); enter the (.+) on a phone\.$/,
      (m) => `카메라가 이 굴림의 ${m[1]}을(를) 읽었습니다. ${m[2]}은(는) 휴대폰으로 입력하세요.`],
    [/^Camera read (.+) — enter the (.+) by hand\.$/, (m) => `카메라가 읽은 값: ${listed(m[1])} — ${m[2]}은(는) 직접 입력하세요.`],
    [/^(?:Read|Rolled|Camera read) (.+)\.$/, (m) => `읽은 값: ${listed(m[1])}.`],
    [/^The dice changed after the read\.$/, () => "읽은 뒤 주사위가 바뀌었습니다."],
    [/^The dice were read, but no roll is expected now\.$/, () => "주사위를 읽었지만 지금은 굴림을 기다리지 않습니다."],
    [/^A die changed after the read: the table keeps (.+), but the tray now shows (.+)\. If the new faces should count, correct the roll\.$/,
      (m) => `읽은 뒤 주사위가 바뀌었습니다: 테이블은 ${listed(m[1])}을(를) 그대로 두고, 트레이에는 지금 ${listed(m[2])}이(가) 보입니다. 새 눈이 맞다면 굴림을 정정하세요.`],
    [/^The camera read (.+) after the table had moved on, so that read was not used\.$/,
      (m) => `카메라가 ${listed(m[1])}을(를) 읽었을 때는 테이블이 이미 넘어가서, 그 값은 쓰지 않았습니다.`],
    [/^I see (no dice|1 die|(\d+) dice), expecting (\d+) — [^(]+\?(.*)$/, countSentence],
    // the box's answers to a button press that did nothing
    [/^No game is being played yet; the host starts one\.$/, () => "아직 진행 중인 게임이 없습니다. 호스트가 게임을 시작합니다."],
    [/^This game is over; start a new one\.$/, () => "게임이 끝났습니다. 새 게임을 시작하세요."],
    [/^NEXT does nothing right now\.$/, () => "지금은 다음 버튼이 아무것도 하지 않습니다."],
    [/^No roll is expected right now\.$/, () => "지금은 주사위를 굴릴 때가 아닙니다."],
    [/^There is no camera; enter the roll by hand\.$/, () => "카메라가 없습니다. 굴림을 직접 입력하세요."],
    [/^There is no move of this turn to take back \(a roll is never undone\)\.$/,
      () => "이 턴에 되돌릴 행동이 없습니다 (굴림은 되돌리지 않습니다)."],
    [/^The turn has just passed to (.+), so NEXT did nothing\. Press NEXT again to end \1's turn\.$/,
      (m) => `방금 ${m[1]}의 차례가 되어 다음 버튼은 아무것도 하지 않았습니다. ${m[1]}의 차례를 끝내려면 다음 버튼을 다시 누르세요.`],
    // the box's refusals of a phone's request
    [/^A new game has started since your phone showed the table, so nothing changed\. Look at the new table\.$/,
      () => "휴대폰이 테이블을 보여 준 뒤 새 게임이 시작되어 아무것도 바뀌지 않았습니다. 새 테이블을 보세요."],
    [/^Another roll has come in since your phone showed the table, so nothing changed\. Look at the last roll, and correct it if it is wrong\.$/,
      () => "휴대폰이 테이블을 보여 준 뒤 다른 굴림이 들어와 아무것도 바뀌지 않았습니다. 마지막 굴림을 보고, 틀렸다면 정정하세요."],
    [/^The table did not answer in time, so nothing changed; try again\.$/,
      () => "테이블이 제때 응답하지 않아 아무것도 바뀌지 않았습니다. 다시 시도하세요."],
    [/^The table is slow to answer; look at the table before trying again\.$/,
      () => "테이블의 응답이 느립니다. 다시 시도하기 전에 테이블을 확인하세요."],
    [/^This roll is (.+)'s to make\.$/, (m) => `이 굴림은 ${m[1].replace(/ or /g, " 또는 ")}의 차례입니다.`],
    [/^The last move was (.+)'s: only \1 \(or the host\) can take it back\.$/,
      (m) => `마지막 행동은 ${m[1]}의 것입니다. ${m[1]} (또는 호스트)만 되돌릴 수 있습니다.`],
    [/^(.+)'s move since then depends on it, so it cannot be taken back\.$/,
      (m) => `그 뒤에 한 ${m[1]}의 행동이 이 행동에 달려 있어 되돌릴 수 없습니다.`],
    [/^Only the last roll can be corrected, and only before anything else happens\.$/,
      () => "마지막 굴림만, 그리고 다른 일이 일어나기 전에만 정정할 수 있습니다."],
    [/^Expecting (\d+) di(?:e|ce) \((.+)\), got (\d+) di(?:e|ce) \((.+)\)\.$/,
      (m) => `주사위 ${m[1]}개(${m[2]})가 필요한데 ${m[3]}개(${m[4]})가 들어왔습니다.`],
    [/^A d(\d+) shows 1 to \1, not (.+)\.$/, (m) => `d${m[1]}의 눈은 1부터 ${m[1]}까지입니다 (${m[2]}은(는) 없습니다).`],
    [/^Your phone acts only for your own seat\.$/, () => "휴대폰으로는 자기 자리의 행동만 할 수 있습니다."],
    [/^Only the host can do that\.$/, () => "호스트만 할 수 있습니다."],
    [/^Only the host can see that\.$/, () => "호스트만 볼 수 있습니다."],
    [/^Join the table first: scan the QR code of your seat\.$/, () => "먼저 테이블에 참가하세요: 자기 자리의 QR 코드를 스캔하세요."],
    [/^This link is not valid \(any more\); ask the host for a new QR code\.$/,
      () => "링크가 유효하지 않습니다. 호스트에게 새 QR 코드를 요청하세요."],
    [/^Too many wrong links from this device; wait a minute, then scan the QR code again\.$/,
      () => "이 기기에서 잘못된 링크가 너무 많았습니다. 1분 기다린 뒤 QR 코드를 다시 스캔하세요."],
    [/^Too many phones are watching the table; close a tab and try again\.$/,
      () => "테이블을 보는 휴대폰이 너무 많습니다. 탭 하나를 닫고 다시 시도하세요."],
    [/^That picture of a die is gone; only the last roll's dice are kept\.$/,
      () => "그 주사위 사진은 없습니다. 마지막 굴림의 주사위 사진만 남겨 둡니다."],
    // the host page's
    [/^Each player needs a different name\.$/, () => "플레이어마다 이름이 달라야 합니다."],
    [/^Each player's name must be some text\.$/, () => "플레이어마다 이름을 입력하세요."],
    [/^A player's name must be at most (\d+) printable characters\.$/,
      (m) => `플레이어 이름은 인쇄 가능한 문자 ${m[1]}자 이하여야 합니다.`],
    [/^(.+) takes (\d+) to (\d+) players, not (\d+)\.$/, (m) => `${m[1]}은(는) ${m[2]}~${m[3]}명이 합니다 (${m[4]}명은 안 됩니다).`],
  ];

  // "I see 1 die, expecting 2 — is one off the tray? (…)" with its notes in brackets.
  function countSentence(m) {
    const seen = m[1] === "no dice" ? 0 : m[1] === "1 die" ? 1 : Number(m[2]);
    const hint = seen > Number(m[3]) ? "트레이에 주사위가 더 있나요?" : "트레이 밖으로 나간 주사위가 있나요?";
    const notes = m[4]
      .replace(/\((\d+) di(?:e|ce) outside the tray as calibrated( — has the camera moved\? Then calibrate it again on the host page)?\)/,
        (all, n, moved) => `(보정한 트레이 밖 주사위 ${n}개${moved ? " — 카메라가 움직였나요? 그렇다면 호스트 페이지에서 다시 보정하세요" : ""})`)
      .replace(/\((\d+) di(?:e|ce) without pips, which I leave to you\)/, (all, n) => `(눈이 없는 주사위 ${n}개는 직접 입력하세요)`);
    return `주사위 ${seen}개가 보입니다 (필요: ${m[3]}개) — ${hint}${notes}`;
  }

  C.inLang = function (sentence) {
    if (C.lang !== "ko" || !sentence) return sentence;
    for (const [pattern, korean] of KOREAN) {
      const found = String(sentence).match(pattern);
      if (found) return korean(found);
    }
    return sentence;
  };
})();
