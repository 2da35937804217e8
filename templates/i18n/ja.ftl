# kansoku default theme — Japanese UI strings.
#
# The message ids in this file MUST match templates/i18n/en.ftl exactly
# (same set of keys, no extras, none missing). Add or remove a key in both
# files at once. Messages are plain text: templates escape them, so no HTML.
#
# Variables passed by templates:
#   footer-authors       $authors = comma-separated author names
#   untranslated-notice  $written = "ja" | "en" (the language the part is written in)

## Site chrome

skip-to-content = 本文へ移動
site-nav-label = ページ一覧
nav-jump = ページ一覧へ
switcher-label = 表示言語
switcher-ja = 日本語
switcher-en = English
switcher-ja-en = 対訳
repo-link = ソースリポジトリ
footer-built-with = kansoku で生成
footer-authors = 著者:{ $authors }
footer-evidence = 証拠ログ一覧
footer-chooser = 表示言語を選ぶ
nav-close = 閉じる
toc-title = このページの内容
scroll-hint = 表が画面より広いため、横にスクロールすると全列を表示できます →
scroll-hint-diagram = 図が画面より広いため、横にスクロールすると全体を表示できます →

## Language names (in the language of the interface)

lang-name-ja = 日本語
lang-name-en = 英語

## Evidence classes (SPEC §3.3)

class-confirmed = 確認済み
class-inferred = 推論
class-unresolved = 未確定
class-limited = 制約あり
class-confirmed-meaning = 直接観測した(実機コマンド、ログ、逆アセンブリ)
class-inferred-meaning = 確認済みの事実から導かれる。直接は観測していない
class-unresolved-meaning = まだ確定できない(観測手段の制約、作業待ち)
class-limited-meaning = 一部だけ観測。ツールの制約で不完全
legend-title = 証拠クラスの凡例
legend-note = 各クラスには色・印(⊕⊕⊕ がもっとも確か、○○○ が未確定)・ラベルがあります。印はどれだけ確かに分かっているかを示し、答えそのものは示しません。答えは言葉と専用の記号で書きます(✓ はい、✗ いいえ)。バッジを選ぶと、その主張が依拠するログが開きます。
basis-transcript = 記録による
basis-note = メモによる
legend-kinds = 証拠には三種類あります。生の出力(出力そのもの)、転記(別の記録の出力を書き写したもの)、メモ(文章による要約)です。転記やメモだけに依拠する確認済みの主張は、バッジにそう示します:「⊕⊕⊕ 確認済み · 記録による」。記録自身の問いや調査状況は観測ではなく記録の枠組みなので、クラスを付けず「記録より」と示します。
framing-label = 記録より
badge-evidence-hint = (根拠のログを開く)

## Search (shown only when JavaScript runs)

search-label = サイト内を検索(日本語)
search-placeholder = 検索(/ キー)
search-count-one = { $count } 件見つかりました
search-count-other = { $count } 件見つかりました
search-none = 見つかりませんでした。別の語や、主張の ID で試してください。
search-error = 検索を読み込めませんでした。
search-claims = 一致した主張
search-more = さらに { $count } 件を表示
search-in-ja = 日本語のページで「{ $query }」を検索
search-from-ja = 日本語のページでは:

## Claim links

claim-permalink = この主張へのリンク
claim-copy = リンクをコピー
claim-copied = コピーしました
evidence-to-claims = このログを引用している主張へ
evidence-back-to-claim = ← 主張へ戻る

## Section listings and page order

nav-all = この節の全 { $count } ページ
listing-title = この節のページ（{ $count } 件）
listing-label = この節のページ一覧
listing-page = { $pages } ページ中 { $number } ページ目
listing-prev = 前へ
listing-next = 次へ
pager-label = 前後のページ
pager-prev = 前：
pager-next = 次：

## Page

lead-label = このページで得られる理解
updated = 更新日
entity-label = このページの対象
entity-role = 役割
draft-notice = 下書き:公開されていません。kansoku serve では表示され、kansoku build では --drafts を付けない限り含まれません。
draft-notice-published = 下書き:このページはまだ確定していません。内容は変わることがあります。
untranslated-notice =
    { $written ->
        [ja] この部分は日本語でのみ書かれています(未翻訳)。
       *[en] この部分は英語でのみ書かれています(未翻訳)。
    }
claims-title = このページの主張
claims-evidence = 根拠
claims-rests-on = 依拠する主張
scope-title = 示せること / 示せないこと
scope-can = 示せること
scope-cannot = 示せないこと
edit-page = このページを編集

## Evidence pages

evidence-kicker = 証拠ログ
evidence-index-title = 証拠ログ一覧
evidence-index-intro = このサイトの主張が依拠するログの一覧です。各ログは行番号付きで表示され、引用された範囲が強調されます。
evidence-index-empty = 証拠ログはまだありません。
evidence-back = 証拠ログ一覧へ戻る
raw-file = 元のファイルを開く
evidence-header-title = ログの由来
evidence-lines-label = ログ本文(行番号付き)
evidence-window-title = 表示している行
evidence-window-intro = このログは { $lines } 行({ $size })あります。このページには冒頭の数行と、引用された各行を前後 { $context } 行とともに表示しています。4,096 バイトを超える行は途中で切っています(…)。すべての行は元のファイルにあります:
evidence-gap = { $first }–{ $last } 行目はここには表示していません。
evidence-file = ファイル
evidence-kind = 種類
evidence-source = 取得元
evidence-written-in-en = この証拠の本文は英語です。記録の内容を英語で書き写したもので、証拠は書き換えないため訳していません。引用している主張は日本語で読めます。
evidence-written-in-ja = この証拠の本文は日本語です。
evidence-captured = 取得日
evidence-host = ホスト
evidence-phase = フェーズ
evidence-cited = 引用数
evidence-kind-raw = 生ログ
evidence-kind-transcript = 転記
evidence-kind-raw-meaning = 取得した出力そのもの
evidence-kind-transcript-meaning = 別の記録が報告する内容の書き写し。観測したのはその記録の書き手で、ここではない
evidence-kind-note-meaning = 文章による要約で、出力ではない
evidence-kind-note = メモ
evidence-accepted = 管理者が把握し、受け入れている点:
cited-by = このログを引用している主張
cited-by-none = このログを引用している主張はまだありません。

## Not found (404)

not-found-title = ページが見つかりません
not-found-text = お探しのページは移動したか、存在しません。
not-found-near = 近くにあるページ:
not-found-home = ホームへ戻る
not-found-search = サイト内を検索
not-found-sections = サイトの各ページ

## Language chooser (site root)

chooser-title = 言語を選んでください
chooser-text = 日本語と英語で読めます。対訳では両方を並べて表示します。
chooser-read = 日本語で読む
chooser-read-parallel = 日英対訳で読む

## Generated views (for engine-rendered tables; see the theme report)

view-not-observed = 観測なし
view-open-questions = 未確定事項
view-hub-component = コンポーネント
view-hub-role = 役割
view-hub-status = 観測状況
view-matrix-generation = 世代
view-observer-target = 観測ポイント
view-observer-attempt = 試したこと
view-observer-result = 結果
view-observer-tells = ここから分かること
view-observer-next = 次の問い
view-status-chain = 観測手段のステータス連鎖
view-home-generation = 世代
view-home-world = 観測世界の性格
view-home-status = 調査状況
view-open-questions-link = 記述のある場所へ
view-open-questions-empty = 未確定・制約ありの記述はありません。

## Review notices (kansoku.lock) and claim lifecycle

notice-suspect-evidence = この主張のレビュー後に根拠が変わりました。今も成り立つとは限りません。
notice-suspect-premise = この主張が依拠する主張がレビュー後に変わりました。今も導けるとは限りません。
notice-stale =
    { $changed ->
        [ja] 前回のレビュー後に日本語の文が変わりました。英語の文は古いままかもしれません。
       *[en] 前回のレビュー後に英語の文が変わりました。この日本語の文は古いままかもしれません。
    }
notice-stale-previous = 前回レビュー時の文
notice-machine = 機械翻訳です。
notice-retracted = 撤回
notice-superseded = 置き換え済み
notice-superseded-by = 置き換え先
notice-pair-stale =
    { $changed ->
        [ja] 前回のレビュー後に日本語が変わりました。隣の英語は古いままかもしれません。
       *[en] 前回のレビュー後に英語が変わりました。隣の日本語は古いままかもしれません。
    }
notice-evidence-suspect = 要確認: この主張のレビュー後にログが変わりました

# kansoku serve's error overlay (never in a built site).
serve-overlay-title = kansoku serve: 最後の再ビルドが失敗しました。このページは最後に成功したビルドのものです。
serve-overlay-hide = 閉じる
serve-overlay-error = エラー
serve-overlay-warning = 警告
serve-overlay-hint = ヒント
serve-overlay-count = check: { $errors ->
        [0] エラーなし
       *[other] エラー { $errors } 件
    }、警告 { $warnings } 件{ $accepted ->
        [0] {""}
       *[other] (受け入れ済み { $accepted } 件)
    }
serve-overlay-accepted = { $code } { $count } 件を受け入れ済み:{ $reason }
# 各コードの意味(オーバーレイの言語で)。続く本文とヒントは kansoku check の出力のまま。
finding-E001 = 構文の誤り(TOML・UTF-8・`+++` の区切り)
finding-E002 = 知らないキー
finding-E003 = 型か値の誤り
finding-E004 = 必要な項目がない
finding-E005 = `kansoku new` の仮の文言が残っている
finding-E006 = 展開すると上限を超える .gz ログ
finding-E007 = SPDX の式でないライセンス
finding-E008 = publisher の書き方の誤り
finding-E009 = 秒数でない SOURCE_DATE_EPOCH
finding-E010 = 知らない証拠クラス
finding-E011 = 証拠のない主張
finding-E012 = 証拠ファイルがない
finding-E013 = 行の範囲がファイルの外
finding-E014 = 引用が範囲内にない
finding-E015 = 証拠ディレクトリの外を指すパス
finding-E016 = 主張 ID の重複
finding-E017 = 使えない主張 ID
finding-E018 = 証拠リンクの書き方の誤り
finding-E019 = 取得した証拠がハッシュと合わない
finding-E020 = 知らない主張
finding-E021 = book.toml にない実体の種類
finding-E022 = 実体キーの重複
finding-E023 = 表の一つのセルに二つの主張
finding-E024 = 観点が宣言していない答え
finding-E025 = どの実体も指さない実体キー
finding-E026 = どの観点も指さない観点名
finding-E027 = 種類のない答え、または不明の答えに記号
finding-E028 = 確認済みか推論の主張に不明の答え
finding-E029 = 前提より強い推論の答え
finding-E030 = 存在しないページかアンカーへのリンク
finding-E031 = 片方の言語がない
finding-E032 = 未翻訳の部分
finding-E033 = 閉じていないか余分な言語ブロック
finding-E034 = 何を観測すれば決着するかを書いていない未決の主張
finding-E035 = 確認済みの主張に `settle`
finding-E040 = テーマ上書きのテンプレートの誤り
finding-E041 = テーマ上書きの Fluent の構文の誤り
finding-E042 = 一つのパスに二つの出力
finding-E043 = 証拠ファイルを読めない
finding-E044 = kansoku が書いていないファイルがビルド先にある
finding-E045 = ビルド先がサイトのソースと重なる
finding-E050 = 解釈できない dot 図
finding-E060 = URL にできないファイル名
finding-E061 = 許可されていない生の HTML
finding-E062 = ブラウザが実行してしまう URL
finding-E070 = 警告でないものの受け入れ
finding-E071 = 両言語の理由がない受け入れ
finding-E072 = path と claim の両方を持つ受け入れ
finding-E080 = kansoku.lock を読めない
finding-E081 = レビュー後に引用先の証拠が変わった
finding-E082 = 引用した行が移動した
finding-E083 = レビュー後に前提が変わった
finding-E084 = 主張の訳が古い
finding-E085 = 言語ブロックの訳が古い
finding-E086 = `from` の循環
finding-E087 = 状態の項目の誤り
finding-E090 = `depends-on` の知らない実体
finding-E091 = 知らない名前付きビュー
finding-W001 = どの主張も引用していない証拠ファイル
finding-W002 = 転記かメモだけに基づく確認済みの主張
finding-W003 = 主張の本文に生の HTML
finding-W004 = もう一方の言語で書かれた本文
finding-W005 = 大きなログの長すぎる行
finding-W025 = 相手の言語の二つの語に当たる答えの語
finding-W040 = kansoku が書いていないファイル(そのまま残す)
finding-W041 = 絶対 URL がなくサイトマップを書かない
finding-W042 = 以前のビルドの残り
finding-W043 = 予備のコピーに他のものが入っている
finding-W060 = 飛ばしたシンボリックリンク
finding-W061 = 本文に生の HTML
finding-W062 = 本文の中の双方向制御文字
finding-W070 = 何にも当てはまらない受け入れ
finding-W071 = 読み込めないページへの参照
finding-W080 = まだレビューしていない主張
finding-W081 = レビュー後に変わった主張
finding-W082 = 不確かな前提の上の推論
finding-W083 = `from` を持つ確認済みの主張
finding-W084 = サイトにもうない主張がロックに残っている

## Answer first (issue 26)

sof-title = 所見の要約
sof-question = 問い
sof-answer = 答え
sof-certainty = 確かさ
sof-for = 対象
sof-in-words = 主張の文言のとおり
sof-note = 各行は一つの答え、その確かさ、その答えが当てはまる対象です。対象はそのページへ、そこから証拠へ飛べます。確認済みに届かない行には番号付きの注があり、理由と、何があれば確定するかを記します。答えと確かさは別の列で示し、色で答えを表すことはしません。
scope-label = 範囲:
scope-on = 観測対象
scope-not-on = 観測なし：
answers-title = { $name } について記録が答えていること
observed-here = この対象で観測した問い:
observed-elsewhere = ここでは観測していない問い:
sof-scope = 範囲
sof-scope-each = 各行の対象

## Answers checked, certainty that says why (issue 40)

answer-not-known = 不明
settle-label = 確定させる観測：
sof-scope-on = 観測対象：
sof-note-ref = 注 { $n }
sof-notes-title = 確認済みに届かない理由と、確定させる観測
sof-note-from = 推論の前提：
sof-note-none = 何があれば確定するかは、まだ書かれていない。
sof-open = 未確定事項 { $count } 件 →
sof-pivot = 同じ問いを{ $kind }ごとに並べた表：
oq-counts = 未確定事項 { $count } 件：

## Captured evidence (issue 27)

evidence-kind-capture = キャプチャ
evidence-kind-capture-meaning = kansoku capture がコマンドの出力を実行時の情報とともに記録したもの。check がハッシュを検証する
evidence-kind-import = 取り込んだログ
evidence-kind-import-meaning = 既存のログを出どころとともにそのまま写したもの。check がハッシュを検証する
evidence-command = コマンド
evidence-cwd = 作業ディレクトリ
evidence-time = 実行時刻(UTC)
evidence-exit = 終了ステータス
evidence-stream = ストリーム
evidence-stream-stdout = 標準出力
evidence-stream-stderr = 標準エラー出力
evidence-other-stream = もう一方のストリーム:
evidence-fact = ホスト
evidence-env = 環境変数
evidence-original = 元のファイル
evidence-mtime = 更新
evidence-note = メモ
evidence-sha256 = 本文の SHA-256

## Offline archive: `kansoku build --archive` (issue 28)

archive-title = { $title }(オフライン版)
archive-about = この 1 ファイルに、ネットワークなしで読めるように記録全体(すべてのページ・ビュー・証拠ログ)を収めています。リンクはファイルの中を移動します。
archive-filter-label = ページ・証拠ログ・主張を絞り込む
archive-filter-placeholder = タイトル・パス・主張の一部
archive-pages = ページ
archive-evidence = 証拠ログ
archive-claims = 主張
archive-to-index = 目次と絞り込み

## Machine readers: Markdown twins and llms.txt (issue 28)

md-html = このページの HTML 版
md-other-language = { $lang ->
    [ja] このページの日本語版
   *[en] このページの英語版
}
md-aspect = 観点
md-claim = 主張
md-depends-on = 依存先
md-cited-lines = 引用された行
md-lines-more = … この範囲の残り { $count } 行は元のファイルにあります。
md-untranslated = { $written ->
    [ja] 日本語
   *[en] 英語
}でのみ書かれた部分です(未翻訳)。
llms-summary = この記録の読み方: どの主張にも証拠クラスが付いています。クラスが示すのはどれだけ確かに分かっているかで、答えそのものではありません。
llms-answers = 実体の観点についての主張は、サイトが定める語彙から答え(✓ はい、✗ いいえ、– 観測なし など)を述べることがあります。答えとクラスは別の項目です。
llms-twins = 下の各ページは Markdown(その index.md)へのリンクです(HTML 版は同じアドレスから index.md を除いたもの)。
llms-lines = ページの Markdown では主張が一行ずつ並びます: ID、答え(述べている場合)、クラス(観測ではなく記録自身の枠組みである主張は「記録より」)、本文、引用された行への証拠リンク。
llms-pages = ページ
llms-evidence = 証拠ログ
llms-full-link = この記録の全ページ(日本語)を一つにまとめた Markdown
llms-other-link = 同じ一覧の英語版
llms-claims-link = すべての主張の JSON: ID、クラス、答え、両言語の本文、証拠リンク
llms-root = この記録は日本語と英語で公開されています。言語ごとにページの一覧があります。
llms-root-link = 日本語のページ一覧と、証拠クラスと答えの読み方
llms-full-intro = この記録の全ページ(日本語)を Markdown で、llms.txt の順に `---` の行で区切って並べたものです。
llms-full-cut = このファイルはここで終わります。{ $limit } バイトを超えない範囲でのみページを収めています。これ以降の { $count } ページは、{ $first } から順に { $list } にリンクで載っています。
